import * as http from 'node:http'
import type { AddressInfo } from 'node:net'
import * as zlib from 'node:zlib'
import type { SpanCollector } from './collector'
import type { TraceProtos } from './proto'
import { spansOf } from './span'

/** The cap of an OTLP body, on the wire and once decompressed (the SDKs batch 512 spans, far less). */
export const MAX_BODY_BYTES = 4 << 20

class TooLarge extends Error {}

/** The body, decompressed when gzip, refused past the cap either way. */
async function readBody(req: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > MAX_BODY_BYTES) throw new TooLarge()
    chunks.push(chunk)
  }
  const body = Buffer.concat(chunks)
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase()
  if (encoding === 'identity') return body
  if (encoding !== 'gzip') throw new Error(`content-encoding ${encoding}`)
  try {
    return zlib.gunzipSync(body, { maxOutputLength: MAX_BODY_BYTES })
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw new TooLarge()
    throw err
  }
}

/** A body as a request object: protobuf unless it says JSON, as OTLP/HTTP's default is. */
function decode(body: Buffer, contentType: string, protos: TraceProtos): unknown {
  return /^application\/json\b/i.test(contentType)
    ? JSON.parse(body.toString('utf8'))
    : protos.decodeRequest(body)
}

function answer(
  res: http.ServerResponse,
  status: number,
  json: boolean,
  protos: TraceProtos
): void {
  if (status !== 200) {
    res.writeHead(status, { 'content-type': 'text/plain' }).end()
    return
  }
  const body = json ? Buffer.from('{}') : Buffer.from(protos.emptyResponse)
  const type = json ? 'application/json' : 'application/x-protobuf'
  res.writeHead(200, { 'content-type': type, 'content-length': body.length }).end(body)
}

/** One request of OTLP/HTTP: every failure is counted and answered, none thrown. */
async function handle(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  collector: SpanCollector,
  protos: TraceProtos
): Promise<void> {
  const contentType = req.headers['content-type'] ?? ''
  const json = /^application\/json\b/i.test(contentType)
  if (req.method !== 'POST' || req.url?.split('?')[0] !== '/v1/traces') {
    req.resume()
    return answer(res, 404, json, protos)
  }
  let body: Buffer
  try {
    body = await readBody(req)
  } catch (err) {
    collector.drop(err instanceof TooLarge ? 'tooLarge' : 'malformed')
    // Past the cap the rest is not read: the connection closes after the answer.
    return answer(res, err instanceof TooLarge ? 413 : 400, json, protos)
  }
  try {
    const { spans, malformed } = spansOf(decode(body, contentType, protos))
    collector.drop('malformed', malformed)
    collector.add(spans)
  } catch {
    collector.drop('malformed')
    return answer(res, 400, json, protos)
  }
  answer(res, 200, json, protos)
}

/** OTLP/HTTP on `host`, a free port when `port` is 0; resolves once it listens. */
export async function listenHttp(
  host: string,
  port: number,
  collector: SpanCollector,
  protos: TraceProtos
): Promise<{ port: number; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    if (res.closed) return
    handle(req, res, collector, protos).catch(() => res.destroy())
  })
  server.headersTimeout = 10_000
  server.requestTimeout = 30_000
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => resolve())
  })
  server.on('error', () => undefined)
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>(resolve => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
  }
}
