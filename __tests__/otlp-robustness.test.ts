/** What senders of spans cannot do to a run: crash it, stall it, or grow it without bound. */
import * as grpc from '@grpc/grpc-js'
import * as net from 'node:net'
import { MAX_SPANS_PER_TRACE, SpanCollector } from '../src/traces/collector'
import { MAX_BODY_BYTES } from '../src/traces/http-receiver'
import { startTraceReceiver, type TraceReceiver } from '../src/traces/receiver'
import type { Span } from '../src/traces/span'

const EXPORT = '/opentelemetry.proto.collector.trace.v1.TraceService/Export'

let receiver: TraceReceiver
beforeEach(async () => {
  receiver = await startTraceReceiver('127.0.0.1')
})
afterEach(() => receiver.close())

/** Raw bytes as one Export call; resolves with the call's status code. */
function rawExport(bytes: Buffer): Promise<number> {
  const client = new grpc.Client(receiver.grpcEndpoint, grpc.credentials.createInsecure(), {
    'grpc.max_send_message_length': -1
  })
  return new Promise(resolve =>
    client.makeUnaryRequest(
      EXPORT,
      (b: Buffer) => b,
      (b: Buffer) => b,
      bytes,
      (err: grpc.ServiceError | null) => {
        client.close()
        resolve(err ? err.code : grpc.status.OK)
      }
    )
  )
}

test('gRPC: a message that does not decode, or is too large, is counted and refused', async () => {
  const codes = [
    await rawExport(Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f])),
    await rawExport(Buffer.alloc(MAX_BODY_BYTES + 1, 0x0a))
  ]
  expect(codes).toEqual([grpc.status.INVALID_ARGUMENT, grpc.status.INVALID_ARGUMENT])
  expect(receiver.counts().dropped).toMatchObject({ malformed: 1, tooLarge: 1 })
  // Still serving afterwards: an empty request is a valid one.
  expect(await rawExport(Buffer.alloc(0))).toBe(grpc.status.OK)
})

test('a sender that stops halfway through its body does not hold up close()', async () => {
  const [host, port] = receiver.httpEndpoint.replace('http://', '').split(':')
  const socket = net.connect(Number(port), host)
  await new Promise(resolve => socket.once('connect', resolve))
  socket.write(
    'POST /v1/traces HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n' +
      'content-length: 100000\r\n\r\n{"resourceSpans": ['
  )
  socket.on('error', () => undefined)
  const t0 = Date.now()
  await receiver.close()
  expect(Date.now() - t0).toBeLessThan(1000)
  socket.destroy()
})

test('a hundred garbage bodies at once: each answered and counted, the receiver serving on', async () => {
  const bodies = Array.from({ length: 100 }, (_, i) =>
    i % 2 ? `{"resourceSpans": [${'['.repeat(i)}` : Buffer.from([i, 0xff, 0x01, i])
  )
  const statuses = await Promise.all(
    bodies.map(body =>
      fetch(`${receiver.httpEndpoint}/v1/traces`, {
        method: 'POST',
        body: typeof body === 'string' ? body : new Blob([body]),
        headers: {
          'content-type': typeof body === 'string' ? 'application/json' : 'application/x-protobuf'
        }
      }).then(r => r.status)
    )
  )
  expect(statuses.every(s => s === 400 || s === 200)).toBe(true)
  const { dropped } = receiver.counts()
  expect(dropped.malformed).toBe(statuses.filter(s => s === 400).length)
  const ok = await fetch(`${receiver.httpEndpoint}/v1/traces`, {
    method: 'POST',
    body: '{}',
    headers: { 'content-type': 'application/json' }
  })
  expect(ok.status).toBe(200)
})

const span = (traceId: string, n: number): Span => ({
  traceId,
  spanId: n.toString(16).padStart(16, '0'),
  parentSpanId: null,
  service: 's',
  name: 's',
  kind: 'server',
  startNs: 0n,
  endNs: 1n
})

test('held spans are capped per trace; spans after close are counted, not kept', () => {
  const c = new SpanCollector()
  const id = 'ab'.repeat(16)
  c.expect(id, 'cd'.repeat(8))
  c.add(Array.from({ length: MAX_SPANS_PER_TRACE + 5 }, (_, i) => span(id, i + 1)))
  expect(c.counts().received).toBe(MAX_SPANS_PER_TRACE)
  expect(c.counts().dropped.overflow).toBe(5)
  c.close()
  c.add([span(id, 1), span('ef'.repeat(16), 2)])
  c.drop('malformed')
  expect(c.counts().dropped.afterClose).toBe(3)
  expect(c.take(id)).toEqual([])
})
