import { randomBytes } from 'node:crypto'

/**
 * Tracing: a `sample` share of requests carries a W3C `traceparent` of a fresh trace id and parent
 * span id (sampled flag set), each handed to `started` before the request leaves, so the services'
 * spans can be joined to the request that caused them. One rule for every driver (HTTP header,
 * gRPC metadata).
 */
export interface TraceStart {
  sample: number
  started(traceId: string, parentSpanId: string): void
}

/** A new trace for one request when it falls in the sampled share, else null. */
export function startTrace(trace: TraceStart | undefined): {
  traceId: string
  traceparent: string
} | null {
  if (!trace || !(Math.random() < trace.sample)) return null
  const traceId = randomBytes(16).toString('hex')
  const parent = randomBytes(8).toString('hex')
  trace.started(traceId, parent)
  return { traceId, traceparent: `00-${traceId}-${parent}-01` }
}
