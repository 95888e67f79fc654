import * as grpc from '@grpc/grpc-js'
import * as protoLoader from '@grpc/proto-loader'
import * as protobuf from 'protobufjs'
import * as crypto from 'node:crypto'
import * as zlib from 'node:zlib'
import { assetPath } from '../src/paths'
import { startTraceReceiver, type TraceReceiver } from '../src/traces/receiver'
import { MAX_BODY_BYTES } from '../src/traces/http-receiver'

const PROTO_DIR = assetPath('src', 'traces', 'proto')
const SERVICE_FILE = 'opentelemetry/proto/collector/trace/v1/trace_service.proto'
const PKG = 'opentelemetry.proto.collector.trace.v1'

const hex = (bytes: number): string => crypto.randomBytes(bytes).toString('hex')

/** A request of `n` spans in one trace, in OTLP/JSON's spelling (hex ids, string times). */
function jsonRequest(traceId: string, parent: string, n = 2, service = 'svc') {
  const start = BigInt(Date.now()) * 1_000_000n
  return {
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: service } }] },
        scopeSpans: [
          {
            spans: Array.from({ length: n }, (_, i) => ({
              traceId,
              spanId: hex(8),
              parentSpanId: parent,
              name: `op${i}`,
              kind: 2,
              startTimeUnixNano: String(start),
              endTimeUnixNano: String(start + 1_000_000n)
            }))
          }
        ]
      }
    ]
  }
}

/** The same request as protobuf bytes: ids become binary. */
function protobufBody(request: ReturnType<typeof jsonRequest>): Uint8Array {
  const root = new protobuf.Root()
  root.resolvePath = (_o, target) => `${PROTO_DIR}/${target}`
  root.loadSync(SERVICE_FILE)
  const type = root.lookupType(`${PKG}.ExportTraceServiceRequest`)
  const binary = JSON.parse(JSON.stringify(request), (key, value) =>
    ['traceId', 'spanId', 'parentSpanId'].includes(key) ? Buffer.from(value, 'hex') : value
  )
  return type.encode(type.fromObject(binary)).finish()
}

const post = (r: TraceReceiver, body: Uint8Array | string, headers: Record<string, string>) =>
  fetch(`${r.httpEndpoint}/v1/traces`, {
    method: 'POST',
    body: typeof body === 'string' ? body : new Blob([Buffer.from(body)]),
    headers
  })

let receiver: TraceReceiver
beforeEach(async () => {
  receiver = await startTraceReceiver('127.0.0.1')
})
afterEach(() => receiver.close())

test('OTLP/HTTP takes protobuf, JSON and gzip bodies of expected traces, and answers success', async () => {
  const [a, b, c] = [hex(16), hex(16), hex(16)]
  for (const id of [a, b, c]) receiver.expect(id, 'aaaaaaaaaaaaaaaa')
  const proto = await post(receiver, protobufBody(jsonRequest(a, 'aaaaaaaaaaaaaaaa', 3)), {
    'content-type': 'application/x-protobuf'
  })
  expect(proto.status).toBe(200)
  expect(proto.headers.get('content-type')).toBe('application/x-protobuf')
  const json = await post(receiver, JSON.stringify(jsonRequest(b, 'aaaaaaaaaaaaaaaa', 2)), {
    'content-type': 'application/json'
  })
  expect([json.status, await json.text()]).toEqual([200, '{}'])
  const gz = zlib.gzipSync(JSON.stringify(jsonRequest(c, 'aaaaaaaaaaaaaaaa', 1)))
  const zipped = await post(receiver, gz, {
    'content-type': 'application/json',
    'content-encoding': 'gzip'
  })
  expect(zipped.status).toBe(200)
  expect([a, b, c].map(id => receiver.take(id).length)).toEqual([3, 2, 1])
  const [span] = receiver.take(a).concat(receiver.take(b))
  expect(span).toBeUndefined()
  expect(receiver.counts()).toEqual({
    received: 6,
    dropped: { malformed: 0, tooLarge: 0, unknownTrace: 0, late: 0, overflow: 0, afterClose: 0 }
  })
})

test('OTLP/gRPC Export keeps the spans with their service, kind and times', async () => {
  const id = hex(16)
  receiver.expect(id, 'bbbbbbbbbbbbbbbb')
  const def = protoLoader.loadSync(SERVICE_FILE, { includeDirs: [PROTO_DIR], longs: String })
  const Client = grpc.makeGenericClientConstructor(
    def[`${PKG}.TraceService`] as grpc.ServiceDefinition,
    'TraceService'
  )
  const client = new Client(
    receiver.grpcEndpoint,
    grpc.credentials.createInsecure()
  ) as unknown as grpc.Client & {
    Export(req: unknown, cb: (err: Error | null) => void): void
  }
  const request = jsonRequest(id, 'bbbbbbbbbbbbbbbb', 2, 'relay7')
  const binary = JSON.parse(JSON.stringify(request), (key, value) =>
    ['traceId', 'spanId', 'parentSpanId'].includes(key) ? Buffer.from(value, 'hex') : value
  )
  await new Promise<void>((resolve, reject) =>
    client.Export(binary, (err: Error | null) => (err ? reject(err) : resolve()))
  )
  client.close()
  const spans = receiver.take(id)
  expect(spans.map(s => [s.service, s.kind, s.parentSpanId])).toEqual([
    ['relay7', 'server', 'bbbbbbbbbbbbbbbb'],
    ['relay7', 'server', 'bbbbbbbbbbbbbbbb']
  ])
  const sent = request.resourceSpans[0].scopeSpans[0].spans[0]
  expect(spans[0].endNs - spans[0].startNs).toBe(
    BigInt(sent.endTimeUnixNano) - BigInt(sent.startTimeUnixNano)
  )
})

test('malformed, huge, unknown, late and after-close spans are counted, never thrown', async () => {
  const known = hex(16)
  receiver.expect(known, 'cccccccccccccccc')
  const statuses = [
    (await post(receiver, Buffer.from([0xff, 0xff, 0xff, 0x0f, 0x01]), {})).status,
    (await post(receiver, '{"resourceSpans": 7', { 'content-type': 'application/json' })).status,
    (await post(receiver, '{"resourceSpans": "x"}', { 'content-type': 'application/json' })).status,
    (await post(receiver, Buffer.alloc(MAX_BODY_BYTES + 1, 0x20), {})).status,
    (
      await post(receiver, zlib.gzipSync(Buffer.alloc(MAX_BODY_BYTES * 2)), {
        'content-encoding': 'gzip'
      })
    ).status
  ]
  expect(statuses).toEqual([400, 400, 400, 413, 413])
  // One bad span among good ones costs only itself.
  const mixed = jsonRequest(known, 'cccccccccccccccc', 2)
  const spans: unknown[] = mixed.resourceSpans[0].scopeSpans[0].spans
  spans.push({ traceId: 'zz', spanId: 'short' })
  await post(receiver, JSON.stringify(mixed), { 'content-type': 'application/json' })
  await post(receiver, JSON.stringify(jsonRequest(hex(16), 'cccccccccccccccc', 3)), {
    'content-type': 'application/json'
  })
  expect(receiver.take(known)).toHaveLength(2)
  await post(receiver, JSON.stringify(jsonRequest(known, 'cccccccccccccccc', 1)), {
    'content-type': 'application/json'
  })
  const endpoint = receiver.httpEndpoint
  await receiver.close()
  await expect(fetch(`${endpoint}/v1/traces`, { method: 'POST', body: '{}' })).rejects.toThrow()
  expect(receiver.counts()).toEqual({
    received: 2,
    dropped: { malformed: 4, tooLarge: 2, unknownTrace: 3, late: 1, overflow: 0, afterClose: 0 }
  })
  // The run's deployment may still hand spans to a closed receiver: counted, not kept.
  receiver.expect(known, 'cccccccccccccccc')
  expect(receiver.take(known)).toEqual([])
})

test('settle waits for a trace to connect, and gives up at its bound without stalling', async () => {
  const id = hex(16)
  receiver.expect(id, 'dddddddddddddddd')
  const t0 = Date.now()
  await receiver.settle([id], { maxMs: 300, quietMs: 50 })
  expect(Date.now() - t0).toBeGreaterThanOrEqual(290)
  const late = setTimeout(
    () =>
      void post(receiver, JSON.stringify(jsonRequest(id, 'dddddddddddddddd', 1)), {
        'content-type': 'application/json'
      }),
    100
  )
  const t1 = Date.now()
  await receiver.settle([id], { maxMs: 5000, quietMs: 50 })
  clearTimeout(late)
  expect(Date.now() - t1).toBeLessThan(2000)
  expect(receiver.take(id)).toHaveLength(1)
})

test('a trace is complete once its root and every span’s parent came; an orphan keeps it open', async () => {
  const [whole, orphaned] = [hex(16), hex(16)]
  receiver.expect(whole, 'eeeeeeeeeeeeeeee')
  receiver.expect(orphaned, 'ffffffffffffffff')
  const json = { 'content-type': 'application/json' }
  await post(receiver, JSON.stringify(jsonRequest(whole, 'eeeeeeeeeeeeeeee', 2)), json)
  // Its root came, and a span whose parent never did.
  await post(receiver, JSON.stringify(jsonRequest(orphaned, 'ffffffffffffffff', 1)), json)
  await post(receiver, JSON.stringify(jsonRequest(orphaned, hex(8), 1)), json)
  expect([receiver.complete(whole), receiver.complete(orphaned)]).toEqual([true, false])
  expect(receiver.take(orphaned)).toHaveLength(2)
  // Taken: nothing of it is held any more.
  expect(receiver.complete(orphaned)).toBe(false)
})
