import type { Load } from '../client/load'
import type { StreamReport } from '../client/load-client'
import type { DumpedEnvelope, Envelope } from './envelope'
import { pacedSamples } from './paced'
import { requestSamples, type RequestSamples } from './samples'
import type { RunResult, Summary } from './schema'
import { summarize } from './summary'
import { traitsOf, type RunProfile } from '../profile/traits'

export interface RunInput extends RequestSamples {
  index: number
  warmup: boolean
  startedAt: string
  clientSeconds: number
  /** Offered requests/s; null for a burst. */
  rate: number | null
  requests: number
  /** Bytes of document payload the client sent in this run. */
  payloadBytes: number
  dataRateMBps: number | null
}

/**
 * Data rate = payload bytes / (last response leaving the frontend − first request entering it),
 * in MB/s (10^6 bytes). Both instants come from the frontend's clock, so it is what the
 * topology sustained, excluding client start-up. Only a burst's span means this.
 */
export function dataRateMBps(envelopes: Envelope[], payloadBytes: number): number {
  const first = Math.min(...envelopes.map(e => e[0].start))
  const last = Math.max(...envelopes.map(e => e[0].end))
  const span = last - first
  return span > 0 ? payloadBytes / span / 1e6 : 0
}

/**
 * One run from its part of a stream. A paced run's start and length are its schedule's (a run is
 * a block of a longer stream); a burst run is a whole stream.
 */
export function streamRun(
  index: number,
  warmup: boolean,
  report: StreamReport,
  envelopes: DumpedEnvelope[],
  load: Load
): RunResult {
  const payloadBytes = report.requests * load.batchSize * load.docBytes
  const began = report.scheduled?.[0] ?? report.startedAt
  const base = {
    index,
    warmup,
    startedAt: new Date(began * 1000).toISOString(),
    clientSeconds: report.scheduled ? report.requests / (report.rate ?? 1) : report.seconds,
    rate: report.rate,
    requests: report.requests,
    payloadBytes
  }
  if (report.rate === null) {
    const routes = envelopes.map(e => e.routes)
    return summarizeRun({
      ...base,
      ...requestSamples(routes),
      dataRateMBps: dataRateMBps(routes, payloadBytes)
    })
  }
  return summarizeRun({ ...base, ...pacedSamples(report, envelopes), dataRateMBps: null })
}

/** A metric without samples in this run (`f:send` of a one-request warm-up) has no summary. */
export function summarizeRun(input: RunInput): RunResult {
  const present = input.metrics.filter(m => input.samples[m].length > 0)
  return {
    index: input.index,
    rate: input.rate,
    warmup: input.warmup,
    startedAt: input.startedAt,
    clientSeconds: input.clientSeconds,
    requests: input.requests,
    payloadBytes: input.payloadBytes,
    dataRateMBps: input.dataRateMBps,
    summaries: Object.fromEntries(present.map(m => [m, summarize(input.samples[m])])),
    samples: Object.fromEntries(present.map(m => [m, input.samples[m]]))
  }
}

function measuredRuns(runs: RunResult[]): RunResult[] {
  const measured = runs.filter(r => !r.warmup)
  if (measured.length === 0) throw new Error('no measured (non-warm-up) run to publish')
  return measured
}

/**
 * A run's figure of a metric as the profile publishes it: its mean where the profile publishes the
 * best run mean (`bestOfRuns`), else its median (`bestRunMedians`).
 */
export const runFigure = (profile: RunProfile, s: Summary): number =>
  traitsOf(profile).publishes === 'run-mean' ? s.mean : s.median

/**
 * Burst figures: the best (minimum) run mean per metric over the measured runs, as the old
 * pipeline did, the best data rate, and the legacy `MB/s` = docs / best roundtrip.
 */
export function bestOfRuns(
  runs: RunResult[],
  metrics: string[],
  docs: number
): { best: Record<string, number>; dataRateMBps: number; legacyMBps: number } {
  const measured = measuredRuns(runs)
  const best = Object.fromEntries(
    metrics.map(m => [m, Math.min(...measured.map(r => r.summaries[m].mean))])
  )
  return {
    best,
    dataRateMBps: Math.max(...measured.map(r => r.dataRateMBps ?? 0)),
    legacyMBps: best.roundtrip > 0 ? docs / best.roundtrip : 0
  }
}

/**
 * Paced figures: every metric's median in the best run, the measured run whose median `headline`
 * is lowest. Slowdowns from outside the topology (other processes, a noisy neighbour of a shared
 * host) come in bursts of seconds and only ever add latency, so the least disturbed run is the most
 * repeatable figure (docs/load.md has the measurement). Taking every metric from one run keeps the
 * hop breakdown consistent with the headline.
 */
export function bestRunMedians(
  runs: RunResult[],
  metrics: string[],
  headline: string
): Record<string, number> {
  const best = measuredRuns(runs).reduce((a, b) =>
    b.summaries[headline].median < a.summaries[headline].median ? b : a
  )
  return Object.fromEntries(metrics.map(m => [m, best.summaries[m].median]))
}
