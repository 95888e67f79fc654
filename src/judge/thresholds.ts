import type { Threshold } from '../config/thresholds'
import { metricType } from '../config/thresholds'
import type { RunResult, RunUsage } from '../metrics/schema'
import { CPU_TOTAL } from '../metrics/usage'
import { profileKey } from '../profile/definition'
import { measuredSamples } from '../result/samples'
import type { CaseResult, Result } from '../result/schema'
import { mean, quantile } from '../stats/sample'

/**
 * Absolute gates (thresholds in k6's syntax, config/thresholds.ts) judged on a result: each
 * expression's figure over the case's measured runs beside its bound. Pure.
 */

/**
 * `absent`: the case has no such figure (its profile publishes none, a sweep has no per-request
 * samples; a service it lacks, or whose counters a run could not read): neither holds nor breaks.
 */
export type ThresholdStatus = 'pass' | 'fail' | 'absent'

/** A threshold's figure in the bound's unit (seconds for a time, MiB for memory), or why it has none. */
export type ThresholdOutcome =
  | { threshold: Threshold; figure: number; status: 'pass' | 'fail' }
  | { threshold: Threshold; figure: null; status: 'absent'; absent: string }

/** A threshold's figure on a case, or why there is none. */
type Figure = { figure: number } | { absent: string }

const NOT_PUBLISHED = 'the profile publishes no such figure'

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

/** A measured run's figure for a `cpu:` or `mem:` metric, and the requests it answered. */
interface RunFigure {
  figure: number
  requests: number
}

/**
 * Why a run with usage has no figure for the metric (metrics/usage.ts leaves one out where a
 * service's counters were not read): the first of its services (every one for `cpu:total`) the
 * case lacks or could not read.
 */
function whyNoFigure(u: RunUsage, index: number, metric: string): string {
  const names =
    metric === CPU_TOTAL ? Object.keys(u.services) : [metric.slice(metric.indexOf(':') + 1)]
  for (const name of names) {
    // Own properties only: a name is the user's text, and `constructor` is no service.
    const s = Object.hasOwn(u.services, name) ? u.services[name] : undefined
    if (!s) return `the case has no service ${name}`
    if ('unreadable' in s)
      return `the counters of ${name} were not read in run ${index}: ${s.unreadable}`
  }
  return `run ${index} read no service`
}

/**
 * The run's own figure, as the metrics stage put it among its samples (one value per run), so a
 * threshold judges the number every table, chart and paired comparison shows.
 */
function runFigure(r: RunResult, metric: string): RunFigure | { absent: string } {
  if (!r.usage) return { absent: 'the profile measures no CPU or memory per run' }
  const [figure] = Object.hasOwn(r.samples, metric) ? r.samples[metric] : []
  if (figure === undefined) return { absent: whyNoFigure(r.usage, r.index, metric) }
  return { figure, requests: r.usage.requests }
}

/**
 * The services' usage over the case's measured runs (metrics/usage.ts), each run one figure. `value`
 * is the case's: for `cpu:` the CPU seconds of every measured run together over the requests they
 * answered, that is the runs' figures weighted by their requests; for `mem:` the largest peak. The
 * other aggregations take the runs' figures as a trend's samples. Absent when a run has no window
 * (a GNES burst, a sweep) or lacks the service's reading: a figure over some runs only would hide
 * the others.
 */
function usageFigure(c: CaseResult, t: Threshold): Figure {
  const figures: RunFigure[] = []
  for (const r of c.runs.filter(r => !r.warmup)) {
    const f = runFigure(r, t.metric)
    if ('absent' in f) return f
    figures.push(f)
  }
  if (figures.length === 0) return { absent: NOT_PUBLISHED }
  const perRun = figures.map(f => f.figure)
  if (t.aggregation.kind !== 'value') return known(trendFigure(perRun, t))
  if (metricType(t.metric) === 'memory') return { figure: Math.max(...perRun) }
  const sum = (g: (f: RunFigure) => number) => figures.reduce((n, f) => n + g(f), 0)
  return { figure: sum(f => f.figure * f.requests) / sum(f => f.requests) }
}

const known = (figure: number | null): Figure =>
  figure === null ? { absent: NOT_PUBLISHED } : { figure }

/** A threshold's figure on a case, in the bound's unit, or why it has none. */
export function thresholdFigure(c: CaseResult, t: Threshold): Figure {
  const type = metricType(t.metric)
  if (type === 'cpu' || type === 'memory') return usageFigure(c, t)
  return known(type === 'time' ? trendFigure(measuredSamples(c, t.metric), t) : sweepFigure(c, t))
}

export function evaluateThreshold(c: CaseResult, t: Threshold): ThresholdOutcome {
  const f = thresholdFigure(c, t)
  if ('absent' in f) return { threshold: t, figure: null, status: 'absent', absent: f.absent }
  const pass = holds[t.operator](f.figure, t.bound)
  return { threshold: t, figure: f.figure, status: pass ? 'pass' : 'fail' }
}

/** How many of a side's thresholds broke, over every case. */
export const brokenCount = (report: ThresholdReport | null): number =>
  (report?.cases ?? []).reduce((n, c) => n + c.outcomes.filter(o => o.status === 'fail').length, 0)

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
