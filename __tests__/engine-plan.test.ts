/** The plans a topology compiles to, before any platform runs them: pure, no GNES, no Docker. */
import { gnesPlan } from '../src/engine/plan/gnes'
import { httpPlan } from '../src/engine/plan/http'
import type { Addressing } from '../src/topology/commands'
import type { ContainerAddressing } from '../src/topology/containers'
import { parseTopology } from '../src/topology/load'
import { gnesCase } from './helpers/conformance'

const addressing: Addressing = {
  host: service => service.toLowerCase(),
  port: (service, side) => (service.length * 10 + (side === 'in' ? 1 : 2)) * 100,
  grpcPort: 5566,
  dumpPath: '/tmp/dump.jsonl'
}

const chain = parseTopology(
  `
id: chain
name: a chain
kind: http
services:
  - name: gateway
    image: example/relay:1
    command: [relay, --next, 'http://\${addr:leaf}/']
    port: 8080
    dependsOn: [leaf]
    ready: { http: /healthz }
    deploy: { placement: { constraints: [node.role==manager] }, endpoint_mode: dnsrr }
  - name: leaf
    image: example/relay:1
    command: [relay, --port, '\${port}']
    port: 9090
    replicas: 2
    resources: { cpus: 0.1, memory: 64M }
    ready: { log: 'listening on \\d+' }
  - name: sink
    image: example/sink:1
    port: 7070
load: { service: gateway }
`,
  '/repo/chain.yml'
)

const loopback: ContainerAddressing = {
  port: (service, replica) => ({ gateway: 8000, leaf: 9000, sink: 7000 })[service]! + replica,
  addr: service => `127.0.0.1:${loopback.port(service, 0)}`,
  addrs: service => [loopback.addr(service)]
}

describe('engine plans', () => {
  test('a GNES topology: services in start order, log waits, the frontend pinned, its gRPC entry and route dump', () => {
    const plan = gnesPlan(gnesCase('1'), addressing)
    expect(plan.kind).toBe('gnes')
    expect(plan.waves.map(w => w.map(s => s.name))).toEqual([
      ['Frontend'],
      ['Router1'],
      ['Router2']
    ])
    const [[frontend], [router1]] = plan.waves
    expect(frontend).toMatchObject({ runs: 'gnes', limits: 'engine', pinned: true })
    expect(router1).toMatchObject({ runs: 'gnes', limits: 'engine', pinned: false })
    expect(frontend.instances[0].argv).toEqual(
      expect.arrayContaining(['--dump_route', '/tmp/dump.jsonl'])
    )
    expect(router1.instances[0].argv).toEqual(expect.arrayContaining(['--host_in', 'frontend']))
    expect(frontend.instances[0].wait).toEqual({ kind: 'log', line: /listening at/ })
    expect(router1.instances[0].wait).toEqual({ kind: 'log', line: /ready and listening/ })
    expect(plan.entry).toEqual({ service: 'Frontend', port: 5566, host: 'frontend' })
    expect(plan.routeDump).toEqual({ instance: 'Frontend-0', path: '/tmp/dump.jsonl' })
    expect(plan.images).toEqual([])
  })

  test('a generic topology: dependencies first, each wait strategy, its own limits and images, the load service pinned as the entry', () => {
    if (chain.kind !== 'http') throw new Error('not http')
    const plan = httpPlan(chain, loopback)
    expect(plan.waves.map(w => w.map(s => s.name).sort())).toEqual([['leaf', 'sink'], ['gateway']])
    const services = new Map(plan.waves.flat().map(s => [s.name, s]))
    const gateway = services.get('gateway')!
    const leaf = services.get('leaf')!
    const sink = services.get('sink')!
    expect(gateway).toMatchObject({
      runs: { image: 'example/relay:1' },
      pinned: true,
      constraints: ['node.role==manager'],
      endpointMode: 'dnsrr',
      limits: { cpus: null, memoryBytes: null }
    })
    expect(gateway.instances[0]).toMatchObject({
      argv: ['relay', '--next', 'http://127.0.0.1:9000/'],
      port: 8000,
      wait: { kind: 'http', path: '/healthz' }
    })
    expect(leaf.instances.map(i => [i.name, i.argv, i.port])).toEqual([
      ['leaf-0', ['relay', '--port', '9000'], 9000],
      ['leaf-1', ['relay', '--port', '9001'], 9001]
    ])
    expect(leaf.instances[0].wait).toEqual({ kind: 'log', line: /listening on \d+/ })
    expect(leaf).toMatchObject({
      pinned: false,
      limits: { cpus: 0.1, memoryBytes: 64 * 1024 ** 2 }
    })
    expect(sink.instances[0]).toMatchObject({ argv: null, wait: { kind: 'port' } })
    expect(plan.entry).toEqual({ service: 'gateway', port: 8000, host: null })
    expect(plan.images.map(s => s.name)).toEqual(['gateway', 'leaf', 'sink'])
  })
})
