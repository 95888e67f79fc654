// OpenTelemetry spans of the echo service, exported as OTLP/JSON over HTTP with Node's own fetch:
// no SDK, so the image needs nothing beyond the three gRPC packages. A call that arrives with a
// sampled W3C `traceparent` is a SERVER span (from the handler's start to its answer); its call to
// the next service a CLIENT span, whose id goes out in the next `traceparent`. Spans go to
// OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces in batches every OTEL_BSP_SCHEDULE_DELAY ms (100 here).
import { randomBytes } from 'node:crypto'

const endpoint = process.env.OTEL_EXPORTER_OTLP_ENDPOINT
const delayMs = Number(process.env.OTEL_BSP_SCHEDULE_DELAY || 100)
const SERVER = 2
const CLIENT = 3
// Wall-clock nanoseconds from the monotonic clock, anchored once.
const origin = BigInt(Date.now()) * 1_000_000n - process.hrtime.bigint()
const now = () => origin + process.hrtime.bigint()
const id = bytes => randomBytes(bytes).toString('hex')

let batch = []

/** The trace a call's `traceparent` continues (sampled only), or null: then nothing is recorded. */
export function continued(traceparent) {
  if (!endpoint) return null
  const m = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/.exec(String(traceparent ?? ''))
  if (!m || (parseInt(m[3], 16) & 1) === 0) return null
  return { traceId: m[1], parentSpanId: m[2] }
}

/** Starts a span of `kind` under `parent` ({ traceId, parentSpanId }); `end(code)` records it. */
export function startSpan(name, kind, parent) {
  const span = {
    traceId: parent.traceId,
    spanId: id(8),
    parentSpanId: parent.parentSpanId,
    name,
    kind,
    startTimeUnixNano: String(now())
  }
  return {
    /** The context a call made inside this span passes on. */
    child: () => ({ traceId: span.traceId, parentSpanId: span.spanId }),
    traceparent: () => `00-${span.traceId}-${span.spanId}-01`,
    end: (code = 0) => {
      batch.push({ ...span, endTimeUnixNano: String(now()), status: { code: code ? 2 : 1 } })
    }
  }
}

export { SERVER, CLIENT }

/** Sends what is batched; a failed export is said once per batch and its spans are dropped. */
export async function flush(service) {
  if (!endpoint || batch.length === 0) return
  const spans = batch
  batch = []
  const body = {
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: service } }] },
        scopeSpans: [{ scope: { name: 'grpc-echo' }, spans }]
      }
    ]
  }
  try {
    const res = await fetch(`${endpoint.replace(/\/$/, '')}/v1/traces`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body)
    })
    if (!res.ok) console.error(`${service}: OTLP export answered ${res.status}`)
  } catch (err) {
    console.error(`${service}: OTLP export failed: ${err}`)
  }
}

/** Exports every `delayMs` while the process runs (the timer keeps no process alive). */
export function exportEvery(service) {
  if (endpoint) setInterval(() => flush(service), delayMs).unref()
}
