import * as os from 'node:os'
import * as path from 'node:path'
import { containerStartOrder } from '../src/topology/containers'
import { parseTopology, TopologyError } from '../src/topology/load'
import type { HttpTopology } from '../src/topology/schema'

const FILE = '/repo/bench/chain.yml'

const chain = `
id: chain
name: a chain
kind: http
services:
  - name: gateway
    image: example/relay:1
    build: { context: ../services/relay }
    command: [python3, relay.py]
    environment: { PORT: '\${port}', NEXT: 'http://\${addr:leaf}/', ALL: '\${addrs:leaf}', COST: '$$5' }
    port: 8080
    dependsOn: [leaf]
    ready: { http: /healthz }
  - name: leaf
    image: example/relay:1
    command: [python3, relay.py, --port, '\${port}', --replica, '\${replica}']
    port: 8080
    replicas: 2
    resources: { cpus: 0.1, memory: 64M }
    ready: { log: 'listening on \\d+' }
load: { service: gateway, method: POST, body: '{}', headers: { content-type: application/json } }
hops: { json: timing.hops }
`

const parse = (text: string): HttpTopology => {
  const t = parseTopology(text, FILE)
  if (t.kind !== 'http') throw new Error('not http')
  return t
}

/** The validation message for `text` with one line replaced. */
const problem = (from: string, to: string): string => {
  const text = chain.replace(from, () => to)
  expect(text).not.toBe(chain)
  try {
    parseTopology(text, FILE)
  } catch (err) {
    expect(err).toBeInstanceOf(TopologyError)
    return (err as Error).message
  }
  throw new Error('parsed')
}

describe('generic (kind: http) topology files', () => {
  test('parse with defaults, sizes in bytes and build contexts beside the file', () => {
    const t = parse(chain)
    expect(t.minimalRate).toBe(5)
    expect(t.load).toEqual({
      service: 'gateway',
      method: 'POST',
      path: '/',
      body: '{}',
      headers: { 'content-type': 'application/json' },
      status: [200],
      timeoutSec: 10
    })
    expect(t.hops).toEqual({ json: 'timing.hops' })
    expect(t.services[0].build).toEqual({
      context: path.resolve('/repo/services/relay'),
      dockerfile: 'Dockerfile'
    })
    expect(t.services[1].resources).toEqual({ cpus: 0.1, memory: 64 * 2 ** 20 })
  })

  test('start dependencies first, and fill every placeholder per instance', () => {
    const ports: Record<string, number> = { 'gateway-0': 9000, 'leaf-0': 9001, 'leaf-1': 9002 }
    const order = containerStartOrder(parse(chain), {
      port: (s, r) => ports[`${s}-${r}`],
      addr: s => `${s}.net:${ports[`${s}-0`]}`,
      addrs: s => (s === 'leaf' ? ['a:9001', 'b:9002'] : [`g:9000`])
    })
    expect(order.map(wave => wave.map(g => g.map(c => c.instance)))).toEqual([
      [['leaf-0', 'leaf-1']],
      [['gateway-0']]
    ])
    const [leaf1] = order[0][0].slice(1)
    expect(leaf1.argv).toEqual(['python3', 'relay.py', '--port', '9002', '--replica', '1'])
    expect(leaf1.ready).toEqual({ log: /listening on \d+/ })
    expect(leaf1.cpus).toBe(0.1)
    const gateway = order[1][0][0]
    expect(gateway.env).toEqual({
      PORT: '9000',
      NEXT: 'http://leaf.net:9001/',
      ALL: 'a:9001 b:9002',
      COST: '$5'
    })
    expect(gateway.cwd).toBe(path.resolve('/repo/services/relay'))
    expect(gateway.ready).toEqual({ http: '/healthz' })
  })

  test('services that do not depend on each other start in one wave', () => {
    const free = parse(chain.replace('    dependsOn: [leaf]\n', ''))
    const order = containerStartOrder(free, {
      port: () => 8080,
      addr: s => `${s}:8080`,
      addrs: s => [`${s}:8080`]
    })
    expect(order.map(wave => wave.map(g => g.map(c => c.instance)))).toEqual([
      [['gateway-0'], ['leaf-0', 'leaf-1']]
    ])
  })

  test('a file without kind is still a GNES topology', () => {
    const t = parseTopology(
      'id: g\nname: g\nservices:\n  - { name: F, role: frontend }\n  - { name: R, role: router, model: BaseRouter, in: { socket: PULL_CONNECT, peer: F }, out: { socket: PUSH_CONNECT, peer: F } }\n',
      FILE
    )
    expect(t.kind).toBe('gnes')
  })

  test.each([
    [
      'dependsOn: [leaf]',
      'dependsOn: [nosuch]',
      /services\.0\.dependsOn\.0: no service named 'nosuch'/
    ],
    [
      '${addr:leaf}/',
      '${addr:nosuch}/',
      /services\.0\.environment\.NEXT: \$\{addr:nosuch\} names no service/
    ],
    ["'${replica}'", "'${home}'", /services\.1\.command\.5: unknown placeholder \$\{home\}/],
    ['service: gateway,', 'service: nosuch,', /load\.service: no service named 'nosuch'/],
    ['memory: 64M', 'memory: 1M', /services\.1\.resources\.memory: at least 6M/],
    ['memory: 64M', 'memory: lots', /services\.1\.resources\.memory: a size such as 64M/],
    [
      "log: 'listening on \\d+'",
      "log: '(unclosed'",
      /services\.1\.ready\.log: not a regular expression/
    ],
    [
      'image: example/relay:1\n    command: [python3, relay.py, --port',
      'image: "Bad Image"\n    command: [python3, relay.py, --port',
      /services\.1\.image: a Docker image reference/
    ],
    ['hops: { json: timing.hops }', 'hops: { json: "a..b" }', /at hops\.json: a dotted field path/],
    // A union's alternatives: the one the value's keys name is the one whose problem is reported.
    [
      'ready: { http: /healthz }',
      "ready: { healthcheck: { test: [CMD, 'true'], intervalSec: 1, timeoutSec: 1, retries: 3 } }",
      /services\.0\.ready\.healthcheck\.startPeriodSec: Required/
    ],
    ['hops: { json: timing.hops }', 'hops: { otlp: { sample: 2 } }', /at hops\.otlp\.sample: /],
    [
      'ready: { http: /healthz }',
      'ready: { http: /healthz, log: up }',
      /services\.0\.ready: Unrecognized key\(s\) in object: 'http'/
    ],
    [
      '  - name: leaf\n',
      '  - name: gateway\n',
      /services\.1\.name: duplicate service name 'gateway'/
    ]
  ])('names the place of a bad field: %s → %s', (from, to, message) => {
    const msg = problem(from, to)
    expect(msg).toMatch(/^\/repo\/bench\/chain\.yml: invalid topology:/)
    expect(msg).toMatch(message)
  })

  test('refuses a dependency cycle, naming it', () => {
    const text = chain.replace(
      '    port: 8080\n    replicas: 2',
      '    port: 8080\n    dependsOn: [gateway]\n    replicas: 2'
    )
    expect(() => parseTopology(text, FILE)).toThrow(
      /dependsOn forms a cycle: (gateway → leaf → gateway|leaf → gateway → leaf)/
    )
  })
})

test('a build context is resolved beside the file, whose directory may hold a +', () => {
  const file = path.join(os.tmpdir(), 'team+bench', 'topology.yml')
  const t = parseTopology(
    [
      'id: web',
      'name: web',
      'kind: http',
      'services:',
      '  - { name: web, image: octo/web, build: { context: web }, port: 8080 }',
      'load: { service: web }'
    ].join('\n'),
    file
  )
  expect(t.kind === 'http' && t.services[0].build?.context).toBe(
    path.join(os.tmpdir(), 'team+bench', 'web')
  )
})
