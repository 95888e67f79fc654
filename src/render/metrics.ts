import type { HistoryEntry } from '../history/schema'
import { CPU_TOTAL, isCpuMetric, isMemMetric } from '../metrics/usage'

/** The metric names of a set of entries, in the order the newest entries list them. */
export function metricOrder(newestFirst: readonly HistoryEntry[]): string[] {
  const seen = new Set<string>()
  for (const e of newestFirst) {
    for (const m of e.metrics.length ? e.metrics : Object.keys(e.best)) seen.add(m)
  }
  return [...seen]
}

/** Metrics of paced profiles (see docs/metrics.md); the last router's end is where GNES's clock stops. */
const PACED_DOCS: Record<string, string> = {
  latency:
    'Paced profiles: from the request’s scheduled send to the last router’s end, so a stalled stream cannot hide delay (coordinated omission corrected). The return hop is not included: GNES’s Frontend collects an answer only when the next request arrives.',
  'latency:sent': 'Paced profiles: from the request’s actual send to the last router’s end.',
  'c:lag':
    'Paced profiles: how late the client handed a request to gRPC after its scheduled time (0 unless the stream stalled).',
  'c->f:send':
    'Paced profiles: from the client handing a request to gRPC to the Frontend receiving it (F.start − send).',
  path: 'Paced profiles: the service path inside GNES, from the Frontend receiving a request to the last router finishing it.'
}

const hopName = (side: string): string => (side === 'f' ? 'the Frontend' : `Router${side.slice(1)}`)

/** What the HTTP driver measures of a generic (kind: http) case; see docs/topology.md. */
const GENERIC_DOCS: Record<string, string> = {
  latency:
    'From the request’s scheduled send to its answer, so a stalled client cannot hide delay (coordinated omission corrected).',
  'latency:sent': 'From the request’s actual send to its answer.',
  'c:lag': 'How late the driver sent a request after its scheduled time (0 unless it stalled).',
  roundtrip: 'From sending a request to its answer, every request of the run sent at once.'
}

/**
 * One sentence per metric name, for the README and the dashboard; patterns cover N routers. A
 * generic case's metrics are the HTTP driver's and the hops its system reports.
 */
export function describeMetric(name: string, generic = false): string {
  if (name === CPU_TOTAL) {
    return 'CPU time (user + system) of all the services in a measured run, per request answered: CPU-ms per request.'
  }
  if (isCpuMetric(name)) {
    return 'CPU time (user + system) of this service in a measured run, per request answered: CPU-ms per request.'
  }
  if (isMemMetric(name)) {
    return 'Peak memory of this service, MiB: since it started (Docker on cgroup v1, local engine), or the larger of its usage at the run’s two ends (cgroup v2).'
  }
  // Only a trace's calls are named a->b: a reported hop name keeps no '>'.
  if (name.startsWith('hop:') && name.includes('->')) {
    return 'Time of the call between two services, from their spans: the client span less the server span (network and queueing).'
  }
  if (name.startsWith('hop:')) {
    return 'Time the system itself reports for this hop: in each answer, or a service’s self time from its spans (its own share, as it measures it).'
  }
  if (generic) return GENERIC_DOCS[name] ?? 'Custom metric, seconds.'
  if (name === 'roundtrip') {
    return 'Frontend receive-to-reply time of one request (F.end − F.start): the end-to-end latency.'
  }
  if (name === 'f:send') return 'Time between the Frontend starting consecutive requests.'
  if (name in PACED_DOCS) return PACED_DOCS[name]
  if (name === 'f:recv') return 'Time between the Frontend finishing consecutive requests.'
  const hop = /^(f|r\d+)->(f|r\d+):send$/.exec(name)
  if (hop) {
    const [, from, to] = hop
    const start = from === 'f' ? 'F.start' : `R${from.slice(1)}.end`
    const end = to === 'f' ? 'F.end' : `R${to.slice(1)}.start`
    return `Transfer from ${hopName(from)} to ${hopName(to)} (${end} − ${start}).`
  }
  const proc = /^r(\d+):proc$/.exec(name)
  if (proc) {
    return `Service time inside Router${proc[1]} (R${proc[1]}.end − R${proc[1]}.start); a blocking router adds its sleep here.`
  }
  return 'Custom metric, seconds.'
}

/** What a series of paired changes (`path vs base`) shows. */
export const AGAINST_BASE_DOC =
  'Change against the base a paired run measured beside the entry in the same job (head ÷ base − 1 over its pairs), in %: a slow spell of the runner moves both sides alike. Only entries paired against the newest entry’s base are shown.'

/** The non-per-request figures every table and chart shows next to the timings. */
export const RATE_DOCS = {
  dataRateMBps:
    'Data rate: payload megabytes (10^6 bytes, docs × doc-bytes) over the span from the first request entering the Frontend to the last response leaving it; best run.',
  legacyMBps:
    'Legacy “MB/s”: the old pipeline’s figure, number of documents divided by one request’s roundtrip. Not a data rate; kept so imported history stays comparable.',
  maxThroughput:
    'Maximum sustainable throughput: the achieved rate of the highest step that answered every request at ≥ 95 % of the offered rate with p99 within the bound; a lower bound when no faster step failed.'
} as const

const pathPosition = (metric: string): number => {
  if (metric === 'c->f:send') return 0.5
  const hop = /^(f|r(\d+))->(?:f|r\d+):send$/.exec(metric)
  if (hop) return 2 * (hop[2] ? Number(hop[2]) : 0) + 1
  const proc = /^r(\d+):proc$/.exec(metric)
  return proc ? 2 * Number(proc[1]) : -1
}

/**
 * Per-hop transfers and service times in path order, for the "where does the time go" chart; a
 * generic case's hops (`hop:<name>`) in the order its system reported them.
 */
export function hopMetrics(metrics: readonly string[]): string[] {
  const reported = metrics.filter(m => m.startsWith('hop:'))
  if (reported.length) return reported
  return metrics.filter(m => pathPosition(m) > 0).sort((a, b) => pathPosition(a) - pathPosition(b))
}

/** The segment of a generic case's hop chart that no reported hop covers. */
export const UNACCOUNTED = 'rest (unreported)'

/**
 * What of a generic case's request no reported hop covers: its latency (a burst's roundtrip) less
 * the hops its system reported, so "where the time goes" adds up to the whole request. Null for
 * GNES's hops, which cover the path by construction, or when the entry has no such figure.
 */
export function unaccountedTime(
  best: Readonly<Record<string, number>>,
  hops: readonly string[]
): number | null {
  if (!hops.length || !hops.every(h => h.startsWith('hop:'))) return null
  const total = best.latency ?? best.roundtrip
  if (total === undefined) return null
  const covered = hops.reduce((a, h) => a + (best[h] ?? 0), 0)
  return Math.max(0, total - covered)
}

/** Vega's default categorical scheme (tableau10) for hops; its grey for the unaccounted rest. */
const REST_COLOR = '#bab0ac'
const HOP_PALETTE = [
  '#4c78a8',
  '#f58518',
  '#e45756',
  '#72b7b2',
  '#54a24b',
  '#eeca3b',
  '#b279a2',
  '#ff9da6',
  '#9d755d'
]

/**
 * One colour per hop (`hops` from hopMetrics), fixed by where the hop lies on the path rather than
 * by which hops a chart has: `f->r1:send` keeps its colour in a burst chart (which starts at the
 * Frontend) beside a minimal-load one (which starts at the client).
 */
export function hopColors(hops: readonly string[]): string[] {
  return hops.map((h, i) => {
    if (h === UNACCOUNTED) return REST_COLOR
    const p = pathPosition(h)
    const slot = h.startsWith('hop:') ? i : p === 0.5 ? 0 : p
    return HOP_PALETTE[slot % HOP_PALETTE.length]
  })
}
