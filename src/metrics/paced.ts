import type { StreamReport } from '../client/load-client'
import { RouteDumpError, type DumpedEnvelope } from './envelope'
import { clamp, gaps, hopNames, procNames, type RequestSamples } from './samples'

/**
 * Metrics of a paced stream, in display order. GNES's frontend collects a router's answer only
 * when the next request of the stream arrives (or the stream ends), so everything after the last
 * router's end — the return hop, the roundtrip, `f:recv` — measures the schedule, not the system,
 * and is left out. What is kept, every hop the timestamps bound:
 *   latency      = last router's end − the request's scheduled send (coordinated-omission corrected)
 *   latency:sent = last router's end − its actual send
 *   c:lag        = actual − scheduled send (> 0 when the stream stalled and the client fell behind)
 *   c->f:send    = frontend's receive − actual send (gRPC transfer into the frontend)
 *   path         = last router's end − frontend's receive (the service path inside GNES)
 * and the hops between, each router's processing time, and `f:send` (arrival spacing).
 */
export function pacedMetricNames(routers: number): string[] {
  return [
    'latency',
    'latency:sent',
    'c:lag',
    'c->f:send',
    'path',
    'f:send',
    ...hopNames(routers).slice(0, -1),
    ...procNames(routers)
  ]
}

/**
 * Joins a paced stream's schedule (from the client) with the frontend's envelopes by request id.
 * Throws when an envelope names a request the stream did not send, or answers one twice. Requests
 * without an answer are not in the samples; `missing` counts them.
 */
export function pacedSamples(
  stream: StreamReport,
  envelopes: DumpedEnvelope[]
): RequestSamples & { missing: number } {
  const scheduled = stream.scheduled
  if (!scheduled) throw new RouteDumpError(`stream ${stream.stream} was not paced`)
  const width = envelopes[0]?.routes.length ?? 0
  if (width < 2) throw new RouteDumpError('route envelopes must name the frontend and a router')
  const routers = width - 1
  const metrics = pacedMetricNames(routers)
  const samples: Record<string, number[]> = Object.fromEntries(metrics.map(m => [m, []]))
  const hops = hopNames(routers).slice(0, -1)
  const seen = new Set<number>()
  for (const e of envelopes) {
    const j = e.requestId
    if (j >= stream.requests || seen.has(j) || e.routes.length !== width) {
      throw new RouteDumpError(
        `stream ${stream.stream}: envelope for request ${j} does not belong to a stream of ${stream.requests} requests through ${routers} routers`
      )
    }
    seen.add(j)
    const [f, ...rs] = e.routes
    const done = rs[rs.length - 1].end
    samples.latency.push(clamp(done - scheduled[j]))
    samples['latency:sent'].push(clamp(done - stream.sent[j]))
    samples['c:lag'].push(clamp(stream.sent[j] - scheduled[j]))
    samples['c->f:send'].push(clamp(f.start - stream.sent[j]))
    samples.path.push(clamp(done - f.start))
    hops.forEach((hop, k) =>
      samples[hop].push(clamp(rs[k].start - (k === 0 ? f.start : rs[k - 1].end)))
    )
    rs.forEach((r, k) => samples[`r${k + 1}:proc`].push(clamp(r.end - r.start)))
  }
  samples['f:send'] = gaps(envelopes.map(e => e.routes[0].start))
  return { metrics, samples, missing: stream.requests - seen.size }
}

/** When each answered request left the last router, epoch seconds, in time order. */
export const completions = (envelopes: DumpedEnvelope[]): number[] =>
  envelopes.map(e => e.routes[e.routes.length - 1].end).sort((a, b) => a - b)

/**
 * Cuts one stream (its client report and the frontend's envelopes) into consecutive parts of the
 * given request counts, each with its own request ids from 0, so each part reads as a stream of
 * its own. Envelopes of requests past the last part are an error.
 */
export function splitStream(
  report: StreamReport,
  envelopes: DumpedEnvelope[],
  sizes: number[]
): { report: StreamReport; envelopes: DumpedEnvelope[] }[] {
  const total = sizes.reduce((a, b) => a + b, 0)
  if (total !== report.requests) {
    throw new RouteDumpError(
      `stream ${report.stream} sent ${report.requests} requests, its parts add up to ${total}`
    )
  }
  let first = 0
  return sizes.map(size => {
    const from = first
    first += size
    const own = envelopes.filter(e => e.requestId >= from && e.requestId < from + size)
    const cut = <T>(xs: T[] | null): T[] | null => (xs ? xs.slice(from, from + size) : null)
    return {
      report: {
        ...report,
        requests: size,
        responses: own.length,
        scheduled: cut(report.scheduled),
        sent: cut(report.sent)!
      },
      envelopes: own.map(e => ({ ...e, requestId: e.requestId - from }))
    }
  })
}
