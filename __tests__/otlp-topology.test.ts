/** `hops: { otlp }` and the receiver's placeholders in native and Compose topologies. */
import * as fs from 'node:fs'
import * as path from 'node:path'
import { containerStartOrder, type ContainerAddressing } from '../src/topology/containers'
import { loadTopologyFile, parseTopology } from '../src/topology/load'
import type { HttpTopology } from '../src/topology/schema'
import { composeDir } from './helpers/compose'

const FILE = '/repo/bench/traced.yml'
const native = (hops: string, env = "OTEL_EXPORTER_OTLP_ENDPOINT: '${otlp}'") => `
id: traced
name: traced
kind: http
services:
  - name: api
    image: example/api:1
    command: [api, --grpc, '\${otlp-grpc}']
    environment: { PORT: '\${port}', ${env} }
    port: 8080
load: { service: api }
${hops}
`

const addressing: ContainerAddressing = {
  port: () => 8080,
  addr: s => `${s}:8080`,
  addrs: s => [`${s}:8080`],
  otlp: { http: 'http://172.30.0.1:4318', grpc: '172.30.0.1:4317' }
}

const parse = (text: string): HttpTopology => parseTopology(text, FILE) as HttpTopology
const instance = (t: HttpTopology) => containerStartOrder(t, addressing)[0][0][0]

test('hops: { otlp: {} } takes every request and a 2 s flush by default, or a stated share', () => {
  expect(parse(native('hops: { otlp: {} }')).hops).toEqual({ otlp: { sample: 1, flushSec: 2 } })
  expect(parse(native('hops: { otlp: { sample: 0.25 } }')).hops).toEqual({
    otlp: { sample: 0.25, flushSec: 2 }
  })
  for (const bad of ['{ sample: 0 }', '{ sample: 1.5 }', '{ flushSec: 0 }', '{ rate: 1 }']) {
    expect(() => parse(native(`hops: { otlp: ${bad} }`))).toThrow(/hops/)
  }
})

test('${otlp} and ${otlp-grpc} become the receiver endpoints in environment and command', () => {
  const i = instance(parse(native('hops: { otlp: {} }')))
  expect(i.env.OTEL_EXPORTER_OTLP_ENDPOINT).toBe('http://172.30.0.1:4318')
  expect(i.argv).toEqual(['api', '--grpc', '172.30.0.1:4317'])
})

test('the shipped traced tree: Caddy exports over plaintext OTLP/gRPC, the nodes over OTLP/HTTP', () => {
  const file = path.join(__dirname, '..', 'topologies', 'examples', 'http', 'tree-otlp.yml')
  const tree = loadTopologyFile(file) as HttpTopology
  expect(tree.hops).toEqual({ otlp: { sample: 1, flushSec: 2 } })
  const [caddy] = containerStartOrder(tree, addressing)
    .flat(2)
    .filter(i => i.service === 'caddy')
  expect(caddy.env).toMatchObject({
    OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
    OTEL_EXPORTER_OTLP_ENDPOINT: 'http://172.30.0.1:4317'
  })
  const nodes = containerStartOrder(tree, addressing)
    .flat(2)
    .filter(i => i.service === 'node')
  expect(nodes.map(n => n.env.OTEL_EXPORTER_OTLP_ENDPOINT)).toEqual(
    Array(2).fill(addressing.otlp!.http)
  )
})

test('the placeholders without hops.otlp are refused, naming the key and the cure', () => {
  expect(() => parse(native('hops: { json: hops }').replace(", '${otlp-grpc}'", ''))).toThrow(
    /services\.0\.environment\.OTEL_EXPORTER_OTLP_ENDPOINT: \$\{otlp\} is the trace receiver's endpoint, which runs only with hops: \{ otlp: \{\} \}/
  )
  expect(() => parse(native('', 'X: a'))).toThrow(/services\.0\.command\.2: \$\{otlp-grpc\}/)
  expect(() => parse(native('hops: { otlp: {} }', "X: '${otlpx}'"))).toThrow(
    /unknown placeholder \$\{otlpx\}/
  )
})

test('a Compose file passes $${otlp} on as the placeholder, and only that', () => {
  const compose = (hops: string) => `
services:
  api:
    image: example/api:1
    expose: ['8080']
    environment:
      OTEL_EXPORTER_OTLP_ENDPOINT: $\${otlp}
      OTEL_GRPC: $\${otlp-grpc}
      PRICE: $$5
x-latency-bench:
  load: { service: api }
  ${hops}
`
  const dir = composeDir({ 'compose.yaml': compose('hops: { otlp: { sample: 0.5 } }') })
  const t = loadTopologyFile(path.join(dir, 'compose.yaml')) as HttpTopology
  expect(t.hops).toEqual({ otlp: { sample: 0.5, flushSec: 2 } })
  expect(instance(t).env).toEqual({
    OTEL_EXPORTER_OTLP_ENDPOINT: 'http://172.30.0.1:4318',
    OTEL_GRPC: '172.30.0.1:4317',
    PRICE: '$5'
  })
  fs.writeFileSync(path.join(dir, 'compose.yaml'), compose(''))
  expect(() => loadTopologyFile(path.join(dir, 'compose.yaml'))).toThrow(/hops: \{ otlp: \{\} \}/)
})
