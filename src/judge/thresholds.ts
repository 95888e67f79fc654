import type { Threshold } from '../config/thresholds'
import { metricType } from '../config/thresholds'
import { profileKey } from '../profile/definition'
import { measuredSamples } from '../result/samples'
import type { CaseResult, Result } from '../result/schema'
import { mean, quantile } from '../stats/sample'

/**
 * Absolute gates (thresholds in k6's syntax, config/thresholds.ts) judged on a result: each
 * expression's figure over the case's measured runs beside its bound. Pure.
 */

/** `absent`: the case's profile publishes no such figure (a sweep has no per-request samples). */
export type ThresholdStatus = 'pass' | 'fail' | 'absent'

export interface ThresholdOutcome {
  threshold: Threshold
  /** The aggregation's figure, in the bound's unit (seconds for a time); null when absent. */
  figure: number | null
  status: ThresholdStatus
}

export interface CaseThresholds {
  case: string
  profile: string
  outcomes: ThresholdOutcome[]
}

/** A side's outcomes, and whether any threshold broke on it. */
export interface ThresholdReport {
  cases: CaseThresholds[]
  broken: boolean
}

const holds: Record<Threshold['operator'], (figure: number, bound: number) => boolean> = {
  '<': (f, b) => f < b,
  '<=': (f, b) => f <= b,
  '>': (f, b) => f > b,
  '>=': (f, b) => f >= b,
  '==': (f, b) => f === b,
  '===': (f, b) => f === b,
  '!=': (f, b) => f !== b
}

/** A time metric's aggregation over its samples, as k6 aggregates a trend. */
function trendFigure(samples: number[], t: Threshold): number | null {
  if (samples.length === 0) return null
  const sorted = [...samples].sort((a, b) => a - b)
  const agg = t.aggregation
  if (agg.kind === 'p') return quantile(sorted, agg.percentile / 100)
  if (agg.kind === 'avg') return mean(sorted)
  if (agg.kind === 'min') return sorted[0]
  if (agg.kind === 'max') return sorted[sorted.length - 1]
  return agg.kind === 'med' ? quantile(sorted, 0.5) : null
}

/**
 * A sweep's figures: `throughput` its maximum sustainable rate (0 when no step was sustained),
 * `errors` its steps' unanswered requests, as a rate of all it sent or a count.
 */
function sweepFigure(c: CaseResult, t: Threshold): number | null {
  if (!c.sweep) return null
  if (t.metric === 'throughput') return c.sweep.maxThroughput ?? 0
  if (t.metric !== 'errors') return null
  const errors = c.sweep.points.reduce((n, p) => n + p.errors, 0)
  const sent = c.sweep.points.reduce((n, p) => n + p.requests, 0)
  if (t.aggregation.kind === 'count') return errors
  return sent > 0 ? errors / sent : null
}

export function thresholdFigure(c: CaseResult, t: Threshold): number | null {
  return metricType(t.metric) === 'time'
    ? trendFigure(measuredSamples(c, t.metric), t)
    : sweepFigure(c, t)
}

export function evaluateThreshold(c: CaseResult, t: Threshold): ThresholdOutcome {
  const figure = thresholdFigure(c, t)
  if (figure === null) return { threshold: t, figure, status: 'absent' }
  return { threshold: t, figure, status: holds[t.operator](figure, t.bound) ? 'pass' : 'fail' }
}

/**
 * Each case's thresholds (`of(caseId)`: its topology's and the input's) on a side's result. A
 * threshold on a figure the case's profile does not publish is absent there, not broken: one
 * mapping serves every profile a run measures.
 */
export function evaluateThresholds(
  result: Result,
  of: (caseId: string) => readonly Threshold[]
): ThresholdReport {
  const cases = result.cases
    .map(c => ({
      case: c.id,
      profile: profileKey(c.profile),
      outcomes: of(c.id).map(t => evaluateThreshold(c, t))
    }))
    .filter(c => c.outcomes.length > 0)
  return { cases, broken: cases.some(c => c.outcomes.some(o => o.status === 'fail')) }
}
