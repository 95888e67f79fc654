/**
 * The answer of one comparison, read from the interval of the change (docs/regression.md):
 * - `regression` / `improvement`: the interval excludes no change, and the change is at least the
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
 * threshold alone can call a change but nothing can show its absence.
 */
export function judge(
  change: number,
  ci: readonly [number, number] | null,
  threshold: number,
  equivalence: readonly [number, number] | null = ci
): Verdict {
  const up = ci ? ci[0] > 0 : true
  const down = ci ? ci[1] < 0 : true
  if (up && change >= threshold) return 'regression'
  if (down && change <= -threshold) return 'improvement'
  if (equivalence && equivalence[0] >= -threshold && equivalence[1] <= threshold) return 'no-change'
  return 'inconclusive'
}

/**
 * Half the interval's width: about the smallest change this run could have told from none (a
 * change that large lands outside the interval about half the time).
 */
export const detectableChange = (ci: readonly [number, number]): number => (ci[1] - ci[0]) / 2

/**
 * About how many runs (pairs) a side would have told this case apart: the interval narrows with
 * the square root of the runs. To show no change it must fit inside ± the threshold around the
 * estimate; to call a change as large as the estimate, exclude zero. Null when no number of runs
 * would (no change against a threshold of 0).
 */
export function runsNeeded(
  change: number,
  ci: readonly [number, number],
  runs: number,
  threshold: number
): number | null {
  const half = detectableChange(ci)
  const size = Math.abs(change)
  const room = size < threshold ? threshold - size : size
  if (room <= 0 || half <= 0) return null
  return Math.ceil(runs * (half / room) ** 2)
}

/** A comparison's answer with what it could have seen; without an interval, only the answer. */
export function judgement(
  change: number,
  ci: readonly [number, number],
  runs: number,
  threshold: number
): { verdict: Verdict; detectable: number; needed: number | null }
export function judgement(
  change: number,
  ci: null,
  runs: number,
  threshold: number
): { verdict: Verdict; detectable: null; needed: null }
export function judgement(
  change: number,
  ci: readonly [number, number] | null,
  runs: number,
  threshold: number
): { verdict: Verdict; detectable: number | null; needed: number | null } {
  return {
    verdict: judge(change, ci, threshold),
    detectable: ci && detectableChange(ci),
    needed: ci && runsNeeded(change, ci, runs, threshold)
  }
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
