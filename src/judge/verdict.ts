/**
 * The answer of one comparison, read from the interval of the change (docs/regression.md):
 * - `regression` / `improvement`: the interval excludes no change (in history mode without a
 *   measure of the drift between jobs, it clears the threshold), and the change is at least the
 *   threshold;
 * - `no-change`: the whole interval lies within ± the threshold: equivalence shown (the two
 *   one-sided tests at the interval's level). A paired run reads it from an interval of its own
 *   (`equivalence`, at 90 %: TOST at 5 %);
 * - `inconclusive`: anything else. The run cannot tell, and says how large a change it could
 *   have seen.
 */
export type Verdict = 'regression' | 'improvement' | 'no-change' | 'inconclusive'

export const VERDICTS: readonly Verdict[] = [
  'regression',
  'improvement',
  'no-change',
  'inconclusive'
]

/**
 * `ci` is the interval of the relative change; null when no test was possible, where the
 * threshold alone can call a change but nothing can show its absence. `clearOf` is how far the
 * interval must lie from no change to call one: 0, or the threshold when the drift the interval
 * cannot hold is only bounded by it.
 */
export function judge(
  change: number,
  ci: readonly [number, number] | null,
  threshold: number,
  equivalence: readonly [number, number] | null = ci,
  clearOf = 0
): Verdict {
  const up = ci ? ci[0] > clearOf : true
  const down = ci ? ci[1] < -clearOf : true
  if (up && change >= threshold) return 'regression'
  if (down && change <= -threshold) return 'improvement'
  if (equivalence && equivalence[0] >= -threshold && equivalence[1] <= threshold) return 'no-change'
  return 'inconclusive'
}

/**
 * What a comparison could have seen: the change its test finds with 80 % power at the spread it
 * measured, and about how many runs (pairs) a side would give that power to tell this case (to
 * show no change, the room left between the estimate and the threshold; to call a change, the
 * estimate itself). Null without a test.
 */
export interface Seen {
  detectable: number | null
  needed: number | null
}

/**
 * The shift, on the log scale, that more runs must be able to tell for this case: the room
 * between the estimate and the threshold when the estimate lies inside it (to show no change),
 * else the estimate itself (to call a change). `noChange` says which.
 */
export function shiftToTell(
  logEstimate: number,
  threshold: number
): { shift: number; noChange: boolean } {
  const size = Math.abs(logEstimate)
  const room = Math.log1p(threshold)
  return size < room ? { shift: room - size, noChange: true } : { shift: size, noChange: false }
}

/** A comparison's answer with what it could have seen. */
export function judgement(
  change: number,
  ci: readonly [number, number] | null,
  threshold: number,
  seen: Seen,
  clearOf = 0
): Seen & { verdict: Verdict } {
  return { verdict: judge(change, ci, threshold, ci, clearOf), ...seen }
}

/** How a comparison was judged, in the words the reports print. */
export interface TestUsed {
  /** The values compared, e.g. per-run medians. */
  values: string
  /** The test that gave the interval, with what it was run on. */
  test: string
}

/** The answer of one case and profile, as the `verdicts` output lists it. */
export interface CaseVerdict {
  case: string
  profile: string
  metric: string
  verdict: Verdict
}

/** The cases' answers from their verdict metrics. */
export const caseVerdicts = (
  cases: readonly {
    caseId: string
    profile: string
    metrics: readonly { metric: string; gating: boolean; verdict: Verdict }[]
  }[]
): CaseVerdict[] =>
  cases.flatMap(c =>
    c.metrics
      .filter(m => m.gating)
      .map(m => ({ case: c.caseId, profile: c.profile, metric: m.metric, verdict: m.verdict }))
  )

/**
 * One answer for the run, the worst of its cases': a regression anywhere, else a case that cannot
 * tell, else an improvement, else no change; `none` when no case was compared.
 */
export function overallVerdict(cases: readonly CaseVerdict[]): Verdict | 'none' {
  if (!cases.length) return 'none'
  const order: Verdict[] = ['regression', 'inconclusive', 'improvement', 'no-change']
  return order.find(v => cases.some(c => c.verdict === v))!
}
