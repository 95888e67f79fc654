/**
 * A gRPC load in a topology file: parsed with its defaults, its .proto resolved beside the file,
 * and refused before anything starts when the file, the call or the data's fields do not hold.
 */
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { parseTopology, TopologyError } from '../src/topology/load'
import type { HttpTopology } from '../src/topology/schema'
import { topologyMermaid } from '../src/render/mermaid'

const ECHO_PROTO = path.join(__dirname, '..', 'examples', 'services', 'grpc-echo', 'echo.proto')

let dir: string
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'grpc-topology-'))
  fs.mkdirSync(path.join(dir, 'protos'))
  fs.copyFileSync(ECHO_PROTO, path.join(dir, 'protos', 'echo.proto'))
  fs.writeFileSync(
    path.join(dir, 'protos', 'shop.proto'),
    `syntax = "proto3";
package shop.v1;
import "common.proto";
enum Kind { KIND_UNSET = 0; BOOK = 1; }
message Item { string sku = 1; Kind kind = 2; int64 cents = 3; map<string, string> tags = 4; }
message Order { repeated Item items = 1; common.Note note = 2; bool rush = 3; }
message Receipt { string id = 1; }
service Orders {
  rpc Place (Order) returns (Receipt);
  rpc Watch (Order) returns (stream Receipt);
}
`
  )
  fs.writeFileSync(
    path.join(dir, 'protos', 'common.proto'),
    'syntax = "proto3";\npackage common;\nmessage Note { string text = 1; }\n'
  )
  fs.writeFileSync(path.join(dir, 'protos', 'broken.proto'), 'syntax = "proto3";\nmessage {\n')
})
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

const native = (grpc: string, extra = ''): string => `
id: g
name: grpc
kind: http
services:
  - name: api
    image: example/api:1
    command: [node, server.js]
    port: 50051
load:
  service: api
  grpc: ${grpc}
${extra}`

const parse = (text: string): HttpTopology => {
  const t = parseTopology(text, path.join(dir, 'bench.yml'))
  if (t.kind !== 'http') throw new Error('not http')
  return t
}

const refusal = (text: string): string => {
  try {
    parse(text)
  } catch (err) {
    expect(err).toBeInstanceOf(TopologyError)
    return (err as Error).message
  }
  throw new Error('parsed')
}

describe('a gRPC load', () => {
  test('parses with its defaults, the .proto resolved beside the file', () => {
    const t = parse(native('{ proto: protos/echo.proto, call: echo.Echo/Say }'))
    expect(t.load).toEqual({
      service: 'api',
      grpc: {
        proto: path.join(dir, 'protos', 'echo.proto'),
        call: 'echo.Echo/Say',
        data: {},
        metadata: {},
        status: [0],
        deadlineSec: 10
      }
    })
    expect(topologyMermaid(t)).toContain('gRPC echo.Echo/Say')
  })

  test('takes nested messages, imports, enums by name, 64-bit integers as strings, maps and lists', () => {
    const data = `{ items: [{ sku: a1, kind: BOOK, cents: '1999', tags: { colour: red } }], note: { text: hi }, rush: true }`
    const t = parse(
      native(
        `{ proto: protos/shop.proto, call: shop.v1.Orders/Place, data: ${data}, metadata: { x-tenant: t1 }, status: [0, 5], deadlineSec: 2.5 }`
      )
    )
    expect(t.load).toMatchObject({
      grpc: { metadata: { 'x-tenant': 't1' }, status: [0, 5], deadlineSec: 2.5 }
    })
  })

  test('takes reflection instead of a file, checked against the running service later', () => {
    const t = parse(native('{ reflection: true, call: echo.Echo/Say, data: { anything: 1 } }'))
    expect(t.load).toMatchObject({ grpc: { reflection: true, call: 'echo.Echo/Say' } })
  })

  test.each([
    [
      'a missing file',
      '{ proto: protos/nope.proto, call: echo.Echo/Say }',
      /at load\.grpc\.proto: .*nope\.proto: .*ENOENT/
    ],
    [
      'a file that does not parse',
      '{ proto: protos/broken.proto, call: a.B/C }',
      /at load\.grpc\.proto: .*broken\.proto: .*illegal/
    ],
    [
      'no such service',
      '{ proto: protos/echo.proto, call: echo.Shout/Say }',
      /at load\.grpc\.call: .*echo\.proto: no service 'echo\.Shout'/
    ],
    [
      'no such method',
      '{ proto: protos/echo.proto, call: echo.Echo/Yell }',
      /at load\.grpc\.call: .*echo\.proto: service 'echo\.Echo' has no method 'Yell' \(its methods: Say\)/
    ],
    [
      'a streaming method',
      '{ proto: protos/shop.proto, call: shop.v1.Orders/Watch }',
      /'shop\.v1\.Orders\/Watch' streams; only unary calls/
    ],
    [
      'an unknown field',
      '{ proto: protos/echo.proto, call: echo.Echo/Say, data: { mesage: hi } }',
      /at load\.grpc\.data: .*echo\.proto, echo\.Echo\/Say: data\.mesage: message echo\.EchoRequest has no field 'mesage' \(its fields: message, status, sleep_ms\)/
    ],
    [
      'an unknown nested field',
      `{ proto: protos/shop.proto, call: shop.v1.Orders/Place, data: { items: [{ sku: a }, { skew: b }] } }`,
      /data\.items\.1\.skew: message shop\.v1\.Item has no field 'skew'/
    ],
    [
      'a value of the wrong type',
      '{ proto: protos/echo.proto, call: echo.Echo/Say, data: { status: five } }',
      /data\.status: a value of type uint32/
    ],
    [
      'an enum name it lacks',
      `{ proto: protos/shop.proto, call: shop.v1.Orders/Place, data: { items: [{ kind: DVD }] } }`,
      /data\.items\.0\.kind: one of KIND_UNSET, BOOK/
    ],
    [
      'a list where one value goes',
      `{ proto: protos/shop.proto, call: shop.v1.Orders/Place, data: { items: { sku: a } } }`,
      /data\.items: a list/
    ],
    [
      'a map value of the wrong type',
      `{ proto: protos/shop.proto, call: shop.v1.Orders/Place, data: { items: [{ tags: { colour: 5 } }] } }`,
      /data\.items\.0\.tags\.colour: a value of type string/
    ],
    [
      'a field named after an object property',
      '{ proto: protos/echo.proto, call: echo.Echo/Say, data: { constructor: x } }',
      /data\.constructor: message echo\.EchoRequest has no field 'constructor'/
    ],
    [
      'both proto and reflection',
      '{ proto: protos/echo.proto, reflection: true, call: echo.Echo/Say }',
      /exactly one of proto .* or reflection: true/
    ],
    ['neither', '{ call: echo.Echo/Say }', /exactly one of proto .* or reflection: true/],
    [
      'a call without its service',
      '{ reflection: true, call: Say }',
      /the call as 'package\.Service\/Method'/
    ],
    [
      'a status gRPC lacks',
      '{ reflection: true, call: a.B/C, status: [17] }',
      /at load\.grpc\.status\.0: /
    ],
    [
      'a reserved metadata key',
      '{ reflection: true, call: a.B/C, metadata: { grpc-timeout: 1S } }',
      /reserved for gRPC/
    ],
    [
      'binary metadata',
      '{ reflection: true, call: a.B/C, metadata: { x-bin: AAA } }',
      /binary \(-bin\) metadata/
    ],
    [
      'a metadata value with a line break',
      `{ reflection: true, call: a.B/C, metadata: { x-a: "1\\r\\n2" } }`,
      /no control characters/
    ]
  ])('refuses %s, naming the file and the place', (_, grpc, message) => {
    const text = refusal(native(grpc))
    expect(text).toMatch(/bench\.yml: invalid topology/)
    expect(text).toMatch(message)
  })

  test('is one kind of load or the other: HTTP fields beside grpc are refused', () => {
    expect(refusal(native('{ reflection: true, call: a.B/C }\n  method: POST'))).toMatch(
      /at load: Unrecognized key\(s\) in object: 'method'/
    )
    expect(refusal(native('{ reflection: true, call: a.B/C }', 'hops: { json: hops }'))).toMatch(
      /at hops: a gRPC load keeps no answer body or headers/
    )
  })

  test("an HTTP load's errors still name HTTP's fields", () => {
    const text = refusal(native('x').replace('  grpc: x\n', '  status: [99]\n'))
    expect(text).toMatch(/at load\.status\.0: Number must be greater than or equal to 100/)
  })
})

describe("a Compose file's gRPC load", () => {
  test('x-latency-bench.load.grpc compiles to the native load, its .proto beside the first file', () => {
    fs.writeFileSync(
      path.join(dir, 'compose.yaml'),
      `services:
  api:
    image: example/api:1
    expose: ['50051']
x-latency-bench:
  load:
    service: api
    grpc: { proto: protos/echo.proto, call: echo.Echo/Say, data: { message: hi } }
`
    )
    const t = parseTopology(
      fs.readFileSync(path.join(dir, 'compose.yaml'), 'utf8'),
      path.join(dir, 'compose.yaml')
    )
    expect(t.kind === 'http' && t.load).toMatchObject({
      service: 'api',
      grpc: { proto: path.join(dir, 'protos', 'echo.proto'), data: { message: 'hi' } }
    })
  })

  test('refuses a call its .proto lacks under x-latency-bench', () => {
    const file = path.join(dir, 'compose-bad.yaml')
    fs.writeFileSync(
      file,
      `services:
  api: { image: example/api:1, expose: ['50051'] }
x-latency-bench:
  load: { service: api, grpc: { proto: protos/echo.proto, call: echo.Echo/Nope } }
`
    )
    expect(() => parseTopology(fs.readFileSync(file, 'utf8'), file)).toThrow(
      /at x-latency-bench\.load\.grpc\.call: .*has no method 'Nope'/
    )
  })
})

test('the shipped gRPC example parses', () => {
  const file = path.join(__dirname, '..', 'topologies', 'examples', 'http', 'grpc-chain.yml')
  const t = parseTopology(fs.readFileSync(file, 'utf8'), file)
  expect(t.kind === 'http' && t.load).toMatchObject({ grpc: { proto: ECHO_PROTO } })
})
