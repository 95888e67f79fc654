import type { RunResult } from '../result/schema'
import type { Envelope } from './envelope'
import { requestSamples } from './samples'
import { summarize } from './statistics'

export interface RunInput {
  index: number
  warmup: boolean
  startedAt: string
  clientSeconds: number
  envelopes: Envelope[]
  /** Bytes of document payload the client sent in this run. */
  payloadBytes: number
}

/**
 * Data rate = payload bytes / (last response leaving the frontend − first request entering it),
 * in MB/s (10^6 bytes). Both instants come from the frontend's clock, so it is what the
 * topology sustained, excluding client start-up.
 */
export function dataRateMBps(envelopes: Envelope[], payloadBytes: number): number {
  const first = Math.min(...envelopes.map(e => e[0].start))
  const last = Math.max(...envelopes.map(e => e[0].end))
  const span = last - first
  return span > 0 ? payloadBytes / span / 1e6 : 0
}

export function summarizeRun(input: RunInput): { run: RunResult; metrics: string[] } {
  const { metrics, samples } = requestSamples(input.envelopes)
  const summaries = Object.fromEntries(metrics.map(m => [m, summarize(samples[m])]))
  return {
    metrics,
    run: {
      index: input.index,
      warmup: input.warmup,
      startedAt: input.startedAt,
      clientSeconds: input.clientSeconds,
      requests: input.envelopes.length,
      payloadBytes: input.payloadBytes,
      dataRateMBps: dataRateMBps(input.envelopes, input.payloadBytes),
      summaries,
      samples
    }
  }
}

/**
 * Published figures: the best (minimum) run mean per metric over the measured runs, as the old
 * pipeline did, the best data rate, and the legacy `MB/s` = docs / best roundtrip.
 */
export function bestOfRuns(
  runs: RunResult[],
  metrics: string[],
  docs: number
): { best: Record<string, number>; dataRateMBps: number; legacyMBps: number } {
  const measured = runs.filter(r => !r.warmup)
  if (measured.length === 0) throw new Error('no measured (non-warm-up) run to publish')
  const best = Object.fromEntries(
    metrics.map(m => [m, Math.min(...measured.map(r => r.summaries[m].mean))])
  )
  return {
    best,
    dataRateMBps: Math.max(...measured.map(r => r.dataRateMBps)),
    legacyMBps: best.roundtrip > 0 ? docs / best.roundtrip : 0
  }
}
