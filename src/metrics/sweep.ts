import type { StreamReport } from '../client/load-client'
import type { LatencyBound } from '../config/latency-bound'
import { MAX_RATE } from '../config/rate'
import type { DumpedEnvelope } from './envelope'
import { latencyHistogram, type LatencyPercentiles } from './histogram'
import { completions, pacedSamples } from './paced'

/** One offered rate of a sweep, as measured. Latencies in seconds, rates in requests/s. */
export interface SweepPoint {
  offered: number
  /** Completions per second between the first and the last answered request of the step. */
  achieved: number
  requests: number
  /** Requests without an answer (a failed or timed-out stream). */
  errors: number
  /** From each request's scheduled send (coordinated-omission corrected). */
  latency: LatencyPercentiles
  /** From each request's actual send. */
  latencySent: LatencyPercentiles
  /** HdrHistogram of `latency` in µs, compressed base64. */
  histogram: string
  sustained: boolean
}

/**
 * A step is sustained when every request was answered, the achieved rate is at least
 * MIN_ACHIEVED of the offered one, and p99 latency (from the schedule) stays within the bound.
 * The maximum sustainable throughput is the achieved rate of the highest sustained step.
 */
const MIN_ACHIEVED = 0.95

export function isSustained(
  p: Pick<SweepPoint, 'offered' | 'achieved' | 'errors' | 'latency'>,
  maxP99: number
): boolean {
  return p.errors === 0 && p.achieved >= MIN_ACHIEVED * p.offered && p.latency.p99 <= maxP99
}

/** Completions per second over the span between the first and the last one; 0 below two. */
export function achievedRate(completions: readonly number[]): number {
  if (completions.length < 2) return 0
  const span = completions[completions.length - 1] - completions[0]
  return span > 0 ? (completions.length - 1) / span : 0
}

/** A step's figures from its stream (after the lead-in); whether it was sustained is judged later. */
export function measuredStep(
  offered: number,
  report: StreamReport,
  envelopes: DumpedEnvelope[]
): Omit<SweepPoint, 'sustained'> {
  const { samples, missing } = pacedSamples(report, envelopes)
  const latency = latencyHistogram(samples.latency)
  return {
    offered,
    achieved: achievedRate(completions(envelopes)),
    requests: report.requests,
    errors: missing,
    latency: latency.percentiles,
    latencySent: latencyHistogram(samples['latency:sent']).percentiles,
    histogram: latency.encoded
  }
}

/** A step whose client failed or overran: every request an error. */
export function failedStep(offered: number, requests: number): SweepPoint {
  const none = { n: 0, p50: 0, p90: 0, p99: 0, max: 0, mean: 0 }
  return {
    offered,
    achieved: 0,
    requests,
    errors: requests,
    latency: none,
    latencySent: none,
    histogram: '',
    sustained: false
  }
}

export function boundSeconds(bound: LatencyBound, first: Pick<SweepPoint, 'latency'>): number {
  return bound.kind === 'absolute' ? bound.seconds : bound.factor * first.latency.p50
}

export function maxSustainedThroughput(points: readonly SweepPoint[]): number | null {
  const sustained = points.filter(p => p.sustained).sort((a, b) => b.offered - a.offered)
  return sustained.length ? sustained[0].achieved : null
}

/**
 * Whether the maximum sustainable throughput is only a lower bound: no step above the highest
 * sustained one failed, so the sweep stopped (by its rates or its step count) before finding the
 * limit.
 */
export function throughputIsLowerBound(
  points: readonly Pick<SweepPoint, 'offered' | 'sustained'>[]
): boolean {
  const passed = points.filter(p => p.sustained).map(p => p.offered)
  if (!passed.length) return false
  const top = Math.max(...passed)
  return !points.some(p => !p.sustained && p.offered > top)
}

export interface SweepPlan {
  /** Explicit rates, in order; null searches upward from `start`. */
  rates: number[] | null
  start: number
  /** Steps at most, the first included. */
  maxSteps: number
  /** The search stops once the highest sustained and lowest failed rates are this close. */
  resolution: number
}

/** The automatic search doubles the rate until a step fails. */
const GROWTH = 2

/**
 * The next rate to offer, or null when the sweep is done. Explicit rates run in order. The search
 * doubles from `start` until a step is not sustained, then bisects (geometrically) between the
 * highest sustained and the lowest failed rate until they are within `resolution`; it never offers
 * more than MAX_RATE. A step with errors ends any sweep: its unanswered requests may still be in
 * the topology.
 */
export function nextSweepRate(plan: SweepPlan, done: readonly SweepPoint[]): number | null {
  if (done.length >= plan.maxSteps || done.some(p => p.errors > 0)) return null
  if (plan.rates) return plan.rates[done.length] ?? null
  if (done.length === 0) return plan.start
  const failed = done.filter(p => !p.sustained).map(p => p.offered)
  const passed = done.filter(p => p.sustained).map(p => p.offered)
  if (passed.length === 0) return null
  const lo = Math.max(...passed)
  const above = failed.filter(r => r > lo)
  if (above.length === 0) return lo >= MAX_RATE ? null : Math.min(lo * GROWTH, MAX_RATE)
  const hi = Math.min(...above)
  return hi / lo <= plan.resolution ? null : Math.sqrt(lo * hi)
}
