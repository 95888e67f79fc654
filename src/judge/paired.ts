import { profileKey } from '../profile/definition'
import type { CaseResult, Result, TraceTally } from '../result/schema'
import type { Block, Interleave } from '../client/interleave'
import { logSeconds } from './log-seconds'
import { lookSchedule, sequentialLevels, type Levels, type Sequence } from './sequential'
import { verdictMetric } from '../metrics/verdict-metric'
import type { OutlierRule } from '../inference/outliers'
import { detectableShift, sdUpperBound, valuesFor } from '../inference/power'
import { mean } from '../stats/sample'
import { trimmedMean } from '../stats/trimmed'
import { pairedInterval, pairedP, pairedT, type PairedT } from '../inference/paired-t'
import { OUTLIER_RULE, SET_ASIDE_RULE } from './set-aside'
import {
  caseVerdicts,
  judge,
  shiftToTell,
  type CaseVerdict,
  type TestUsed,
  type Verdict
} from './verdict'
import { diagnose, diagnosticLevel, type Diagnosed } from './multiplicity'
import { hopShares, type HopShares } from './hop-shares'
import { sumTraceTallies } from '../metrics/trace-tally'
import { fmtPercent } from '../text/percent'

/**
 * The paired verdict: base and head measured in one job, their runs interleaved
 * (src/client/interleave.ts). Pair i is the i-th measured run of each side: two adjacent blocks,
 * or two runs taken at once with their requests alternating.
 */

export interface PairedMetric {
  metric: string
  /** Only the case's verdict metric (`verdictMetric`) decides `PairedComparison.regression`. */
  gating: boolean
  /** Per pair, head run figure / base run figure (`runFigure`), in pair order. */
  ratios: number[]
  /** Geometric means of the run figures, seconds. */
  base: number
  head: number
  /** head − base, seconds: what a hop's change adds to the case's. */
  delta: number
  /** exp(mean log ratio) − 1: the paired change. */
  change: number
  /** Its confidence interval at the nominal level of the case's sequence (1 − α′). */
  ci: [number, number]
  /** The interval "no change" is read from: all looks together at 1 − 2α (TOST at α). */
  equivalence: [number, number]
  /** The nominal two-sided p-value of the paired t-test: significant when below α′. */
  p: number
  verdict: Verdict
  /**
   * The change found with 80 % power at the case's level, at the upper 80 % confidence bound of
   * these pairs' spread (`SPREAD_CONFIDENCE`).
   */
  detectable: number
  /** About how many pairs give 80 % power to tell this case apart, at that spread; null: none would. */
  needed: number | null
  /** 0-based indices of the pairs left out of the test (`setAside` of the case). */
  setAside: number[]
}

export interface PairedCase {
  caseId: string
  caseName: string
  /** The profile's key, e.g. `minimal@5`. */
  profile: string
  /** The topology files of each side (different only with `baseline-topology`). */
  files: { base: string; head: string }
  /** The verdict metric and the diagnostics, whose p-values are adjusted across the case. */
  metrics: (PairedMetric & Diagnosed)[]
  /** The verdict metric's change split into its hops; null when it cannot be (src/judge/hop-shares.ts). */
  shares: HopShares | null
  /** How many pairs were measured, against the planned looks, and why the run stopped. */
  sequence: Sequence
  /** The nominal level α′ of every interval of this case that can call a change. */
  level: number
  /** The nominal level of the intervals "no change" is read from (2α held over every look). */
  equivalenceLevel: number
  /** The level the diagnostics' Holm-adjusted p-values are read at, at any one look. */
  diagnosticLevel: number
  /**
   * 0-based indices of the pairs whose verdict-metric ratio the outlier rule set aside
   * (src/judge/set-aside.ts); every metric of the case leaves them out, the pair being the unit.
   */
  setAside: number[]
  /** With `canary`: the verdict metric of the base beside itself (A/A), at α; else null. */
  canary: PairedMetric | null
  /** What each side's traces brought back over all its runs; null without hops from traces. */
  traces: { base: TraceTally | null; head: TraceTally | null }
}

export interface PairedComparison {
  threshold: number
  /** The pull request's level: all its cases' change-calling intervals hold together at 1 − α. */
  alpha: number
  /** Each case's share of it, α / cases (Bonferroni), at every look. */
  caseAlpha: number
  /** The blocks in the order they ran. */
  order: Block[]
  /** Whether the sides ran whole runs in turn, or at once with their requests alternating. */
  interleave: Interleave
  /** What GNES each side ran; null for a run of generic cases only. */
  side: Record<
    'base' | 'head',
    { gnesVersion: string; gnesTag: string; gnesVcs: string | null } | null
  >
  /** The benchmarked commit (the head's). */
  commit: string | null
  /** The base's own commit when it is another (`baseline-ref`: its files were that commit's). */
  baseCommit: string | null
  engine: Result['meta']['engine']
  load: Result['meta']['load']
  cases: PairedCase[]
  /** What was compared, and by which test. */
  test: TestUsed
  /** True when the verdict metric of any case is a regression. */
  regression: boolean
  /** Each case's answer. */
  verdicts: CaseVerdict[]
}

/**
 * What a pair compares of each side's run: its mean request with the fastest and slowest 20 % cut
 * off. A pair's spread is mostly its requests' own sampling error (docs/regression.md, "Where a
 * pair's spread comes from"), and this estimate has about a quarter less of it than the median
 * (the median uses the middle of the sample only) while a stall or a clamped zero in up to a fifth
 * of the requests still cannot move it. Taken on the seconds, then logged, so that a metric of
 * many clamped zeros (a hop under the timestamps' resolution) stays finite.
 */
export const PAIR_TRIM = 0.2
export const runFigure = (run: readonly number[]): number => logSeconds(trimmedMean(run, PAIR_TRIM))

/** The values and the test of a paired run. */
const PAIRED_T_TEST: TestUsed = {
  values: `per-run ${fmtPercent(PAIR_TRIM, { decimals: 0 })}-trimmed means of per-request samples`,
  test: `Student’s paired t-test on the log ratios, pairs that fail ${SET_ASIDE_RULE} set aside`
}

/** How a paired metric is judged: the case's levels, and which pairs to leave out. */
export interface PairedOptions {
  alpha?: number
  gating?: boolean
  /** The case's levels; one look's at `alpha` when absent. */
  levels?: Levels
  /** Pairs to leave out (0-based); when absent, those `rule` names among this metric's ratios. */
  setAside?: readonly number[]
  /** The outlier rule, and the levels' calibration; null: Student's t on every pair. */
  rule?: OutlierRule | null
}

/**
 * One metric over n pairs of runs (per-request samples of each measured run, in pair order). The
 * unit is the pair: adjacent blocks share the machine's state, so the ratio of their medians
 * cancels whatever drifts slower than a block. The test is Student's paired t-test on the log run
 * figures (`runFigure`) of the pairs the outlier rule keeps (src/judge/set-aside.ts), so the change and its
 * interval are ratios.
 */
export function pairedMetric(
  metric: string,
  base: readonly number[][],
  head: readonly number[][],
  threshold: number,
  options: PairedOptions = {}
): PairedMetric {
  if (base.length !== head.length || base.length < 2) {
    throw new RangeError(
      `a paired test needs at least 2 pairs of runs (got ${base.length} base and ${head.length} head runs)`
    )
  }
  const { alpha = 0.05, gating = false, rule = OUTLIER_RULE } = options
  const levels = options.levels ?? sequentialLevels([base.length], alpha, 1, rule)
  const a = base.map(runFigure)
  const b = head.map(runFigure)
  const diffs = b.map((x, i) => x - a[i])
  const r = pairedT(diffs, rule, options.setAside)
  const ratio = ([lo, hi]: [number, number]): [number, number] => [
    Math.exp(lo) - 1,
    Math.exp(hi) - 1
  ]
  const ci = ratio(pairedInterval(r, levels.test))
  const equivalence = ratio(pairedInterval(r, levels.equivalence))
  const keep = (xs: number[]) => xs.filter((_, i) => !r.setAside.includes(i))
  const [baseMean, headMean] = [Math.exp(mean(keep(a))), Math.exp(mean(keep(b)))]
  const change = Math.exp(r.mean) - 1
  return {
    metric,
    gating,
    ratios: diffs.map(Math.exp),
    base: baseMean,
    head: headMean,
    delta: headMean - baseMean,
    change,
    ci,
    equivalence,
    p: pairedP(r),
    verdict: judge(change, ci, threshold, equivalence),
    ...power(r, levels, threshold),
    setAside: r.setAside
  }
}

/**
 * The confidence of the spread the detectable change is computed at. The pairs' own s.d. is below
 * the true one more often than not, so a change computed from it is found less often than its
 * 80 % (65 % at 6 pairs, 77 % at 30: `npm run bench:paired-family -- --sections power`); at the
 * upper 80 % bound of the spread it is found at least 80 % of the time at every look
 * (docs/regression.md).
 */
export const SPREAD_CONFIDENCE = 0.8

/**
 * The change found with 80 % power at the case's level, and how many pairs would give 80 % power
 * to tell this case: to call a change as large as the estimate, or to show no change when the
 * estimate is inside the threshold (at the equivalence level); both at the upper bound of the
 * pairs' spread.
 */
function power(
  r: PairedT,
  levels: Levels,
  threshold: number
): { detectable: number; needed: number | null } {
  const { shift, noChange } = shiftToTell(r.mean, threshold)
  const sd = sdUpperBound(r.sd, r.kept, SPREAD_CONFIDENCE)
  return {
    detectable: Math.exp(detectableShift(sd, r.kept, levels.test)) - 1,
    needed: valuesFor(sd, shift, noChange ? levels.equivalence : levels.test)
  }
}

/** Per measured run, its per-request samples of `metric`, in run order. */
const runSamples = (c: CaseResult, metric: string): number[][] =>
  c.runs.filter(r => !r.warmup).map(r => r.samples[metric] ?? [])

/** Per measured run, its per-request samples of every metric. */
/** The measured runs' samples in pair order, less the pairs set aside. */
const keptRuns = (c: CaseResult, setAside: readonly number[]) =>
  c.runs
    .filter(r => !r.warmup)
    .map(r => r.samples)
    .filter((_, i) => !setAside.includes(i))

const pairsOf = (c: CaseResult): number => Math.max(c.runs.filter(r => !r.warmup).length, 2)

function compareCase(
  base: CaseResult,
  head: CaseResult,
  sequence: Sequence,
  canary: { base: CaseResult; head: CaseResult } | null,
  options: { threshold: number; alpha: number; cases: number }
): PairedCase {
  const { threshold, alpha, cases } = options
  // Two different topologies may not share every hop: only common metrics pair.
  const measured = head.metrics
    .filter(m => base.metrics.includes(m))
    .map(m => ({ m, a: runSamples(base, m), b: runSamples(head, m) }))
    .filter(({ a, b }) => a.every(s => s.length > 0) && b.every(s => s.length > 0))
  const gate = verdictMetric(head)
  // The pairs were many because the verdict metric was inconclusive: every interval of the case
  // takes the sequence's levels, and the diagnostics a level that holds over every look.
  const levels = sequentialLevels(sequence.looks, alpha, cases)
  const diagnosticsAt = diagnosticLevel(levels.test, alpha / cases, sequence.looks.length)
  const judged = measured.find(x => x.m === gate)
  const gating =
    judged && pairedMetric(gate, judged.a, judged.b, threshold, { alpha, levels, gating: true })
  const setAside = gating?.setAside ?? []
  return {
    caseId: head.id,
    caseName: head.name,
    profile: profileKey(head.profile),
    files: { base: base.topologyFile, head: head.topologyFile },
    metrics: diagnose(
      measured.map(({ m, a, b }) =>
        m === gate && gating
          ? gating
          : pairedMetric(m, a, b, threshold, { alpha, levels, setAside })
      ),
      diagnosticsAt
    ),
    // From the same pairs the verdict metric kept.
    shares: judged
      ? hopShares(
          gate,
          measured.map(x => x.m),
          keptRuns(base, setAside),
          keptRuns(head, setAside),
          levels.test
        )
      : null,
    sequence,
    level: levels.test,
    equivalenceLevel: levels.equivalence,
    diagnosticLevel: diagnosticsAt,
    setAside,
    canary: canary && canaryMetric(gate, canary, threshold, alpha),
    traces: {
      base: sumTraceTallies(base.runs.map(r => r.traces)),
      head: sumTraceTallies(head.runs.map(r => r.traces))
    }
  }
}

/** The A/A run's verdict metric; null when a side lacks its samples. */
function canaryMetric(
  metric: string,
  aa: { base: CaseResult; head: CaseResult },
  threshold: number,
  alpha: number
): PairedMetric | null {
  const [a, b] = [runSamples(aa.base, metric), runSamples(aa.head, metric)]
  if (a.length < 2 || a.length !== b.length || ![...a, ...b].every(s => s.length > 0)) return null
  return pairedMetric(metric, a, b, threshold, { alpha })
}

/**
 * The answer of the case's verdict metric over the pairs measured so far, at look `look` of the
 * planned `looks`, as one of the run's `cases` cases (one when absent): what the paired run asks
 * before it adds pairs.
 */
export function interimVerdict(
  metric: string,
  base: readonly number[][],
  head: readonly number[][],
  looks: readonly number[],
  options: { threshold: number; alpha?: number; cases?: number }
): PairedMetric {
  const alpha = options.alpha ?? 0.05
  const levels = sequentialLevels(looks, alpha, options.cases ?? 1)
  return pairedMetric(metric, base, head, options.threshold, { alpha, gating: true, levels })
}

/** One look of all the pairs a run measured: a paired run that was not adaptive. */
export const fixedSequence = (pairs: number): Sequence => ({
  looks: lookSchedule(pairs, pairs),
  pairs,
  stop: 'max-pairs',
  seconds: null
})

/** Both sides of a paired run, case by case, metric by metric. */
export function comparePaired(
  run: {
    base: Result
    head: Result
    order: Block[]
    interleave: Interleave
    /** Per case, how its pairs were measured; one look of all of them when absent. */
    sequences?: Sequence[]
    /** Per case, the base beside itself (`canary`), or null. */
    canaries?: ({ base: CaseResult; head: CaseResult } | null)[]
  },
  options: { threshold: number; alpha?: number }
): PairedComparison {
  const alpha = options.alpha ?? 0.05
  // The family is the run's cases: each takes an equal share of α at every look.
  const family = { threshold: options.threshold, alpha, cases: Math.max(run.head.cases.length, 1) }
  const cases = run.head.cases.map((h, i) => {
    const sequence = run.sequences?.[i] ?? fixedSequence(pairsOf(h))
    const canary = run.canaries?.[i] ?? null
    return compareCase(run.base.cases[i], h, sequence, canary, family)
  })
  const side = (r: Result) =>
    r.meta.gnes && {
      gnesVersion: r.meta.gnes.version,
      gnesTag: r.meta.gnes.tag,
      gnesVcs: r.meta.gnes.vcs
    }
  return {
    threshold: options.threshold,
    alpha,
    caseAlpha: alpha / family.cases,
    order: run.order,
    interleave: run.interleave,
    side: { base: side(run.base), head: side(run.head) },
    commit: run.head.meta.git.sha,
    baseCommit: run.base.meta.git.sha !== run.head.meta.git.sha ? run.base.meta.git.sha : null,
    engine: run.head.meta.engine,
    load: run.head.meta.load,
    cases,
    test: PAIRED_T_TEST,
    regression: cases.some(c => c.metrics.some(m => m.gating && m.verdict === 'regression')),
    verdicts: caseVerdicts(cases)
  }
}
