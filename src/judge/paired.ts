import ttest from '@stdlib/stats-ttest'
import { profileKey } from '../profile/definition'
import type { CaseResult, Result } from '../result/schema'
import type { Block, Interleave } from '../client/interleave'
import { logMedian } from './compare'
import { lookSchedule, sequentialLevel, type Sequence } from './sequential'
import { verdictMetric } from '../metrics/verdict-metric'
import { mean } from '../stats/sample'
import { caseVerdicts, judgement, type CaseVerdict, type TestUsed, type Verdict } from './verdict'
import { diagnose, type Diagnosed } from './multiplicity'
import { hopShares, type HopShares } from './hop-shares'

/**
 * The paired verdict: base and head measured in one job, their runs interleaved
 * (src/client/interleave.ts). Pair i is the i-th measured run of each side: two adjacent blocks,
 * or two runs taken at once with their requests alternating.
 */

export interface PairedMetric {
  metric: string
  /** Only the case's verdict metric (`verdictMetric`) decides `PairedComparison.regression`. */
  gating: boolean
  /** Per pair, head run median / base run median, in pair order. */
  ratios: number[]
  /** Geometric means of the run medians, seconds. */
  base: number
  head: number
  /** head − base, seconds: what a hop's change adds to the case's. */
  delta: number
  /** exp(mean log ratio) − 1: the paired change. */
  change: number
  /** Its confidence interval at the nominal level of the case's sequence (1 − α′). */
  ci: [number, number]
  /** The nominal two-sided p-value of the paired t-test: significant when below α′. */
  p: number
  verdict: Verdict
  /** Half the interval's width: about the smallest change these pairs could tell from none. */
  detectable: number
  /** About how many pairs would have told it (see `runsNeeded`); null when none would. */
  needed: number | null
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
  /** The nominal level α′ of every interval of this case (α when the sequence has one look). */
  level: number
  /** With `canary`: the verdict metric of the base beside itself (A/A), at α; else null. */
  canary: PairedMetric | null
}

export interface PairedComparison {
  threshold: number
  alpha: number
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

/** The values and the test of a paired run. */
const PAIRED_T_TEST: TestUsed = {
  values: 'per-run medians of per-request samples',
  test: 'Student’s paired t-test on the log ratios'
}

/**
 * One metric over n pairs of runs (per-request samples of each measured run, in pair order). The
 * unit is the pair: adjacent blocks share the machine's state, so the ratio of their medians
 * cancels whatever drifts slower than a block. The test is Student's paired t-test (stdlib's
 * `ttest`, two-sided) on the log run medians, so the change and its interval are ratios.
 */
export function pairedMetric(
  metric: string,
  base: readonly number[][],
  head: readonly number[][],
  threshold: number,
  alpha = 0.05,
  gating = false,
  level = alpha
): PairedMetric {
  if (base.length !== head.length || base.length < 2) {
    throw new RangeError(
      `a paired test needs at least 2 pairs of runs (got ${base.length} base and ${head.length} head runs)`
    )
  }
  const a = base.map(logMedian)
  const b = head.map(logMedian)
  const diffs = b.map((x, i) => x - a[i])
  const d = mean(diffs)
  let ci: [number, number]
  let p: number
  if (diffs.every(x => x === diffs[0])) {
    // No spread: the difference is exact (the t statistic would divide by zero).
    ci = [d, d]
    p = d === 0 ? 1 : 0
  } else {
    const t = ttest(b, a, { alpha: level })
    ci = [t.ci[0], t.ci[1]]
    p = t.pValue
  }
  const change = Math.exp(d) - 1
  const interval: [number, number] = [Math.exp(ci[0]) - 1, Math.exp(ci[1]) - 1]
  const [baseMean, headMean] = [Math.exp(mean(a)), Math.exp(mean(b))]
  return {
    metric,
    gating,
    ratios: diffs.map(Math.exp),
    base: baseMean,
    head: headMean,
    delta: headMean - baseMean,
    change,
    ci: interval,
    p,
    ...judgement(change, interval, diffs.length, threshold)
  }
}

/** Per measured run, its per-request samples of `metric`, in run order. */
const runSamples = (c: CaseResult, metric: string): number[][] =>
  c.runs.filter(r => !r.warmup).map(r => r.samples[metric] ?? [])

/** Per measured run, its per-request samples of every metric. */
const measured = (c: CaseResult) => c.runs.filter(r => !r.warmup).map(r => r.samples)

const pairsOf = (c: CaseResult): number => Math.max(c.runs.filter(r => !r.warmup).length, 2)

function compareCase(
  base: CaseResult,
  head: CaseResult,
  sequence: Sequence,
  canary: { base: CaseResult; head: CaseResult } | null,
  threshold: number,
  alpha: number
): PairedCase {
  // Two different topologies may not share every hop: only common metrics pair.
  const metrics = head.metrics.filter(m => base.metrics.includes(m))
  const gate = verdictMetric(head)
  // The pairs were many because the verdict metric was inconclusive: every interval of the case
  // takes the sequence's level, so the diagnostics hold under that stopping rule too.
  const level = sequentialLevel(sequence.looks, alpha)
  return {
    caseId: head.id,
    caseName: head.name,
    profile: profileKey(head.profile),
    files: { base: base.topologyFile, head: head.topologyFile },
    metrics: diagnose(
      metrics
        .map(m => ({ m, a: runSamples(base, m), b: runSamples(head, m) }))
        .filter(({ a, b }) => a.every(s => s.length > 0) && b.every(s => s.length > 0))
        .map(({ m, a, b }) => pairedMetric(m, a, b, threshold, alpha, m === gate, level)),
      level
    ),
    shares: metrics.includes(gate)
      ? hopShares(gate, metrics, measured(base), measured(head), level)
      : null,
    sequence,
    level,
    canary: canary && canaryMetric(gate, canary, threshold, alpha)
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
  return pairedMetric(metric, a, b, threshold, alpha, false)
}

/**
 * The answer of the case's verdict metric over the pairs measured so far, at look `look` of the
 * planned `looks`: what the paired run asks before it adds pairs.
 */
export function interimVerdict(
  metric: string,
  base: readonly number[][],
  head: readonly number[][],
  looks: readonly number[],
  options: { threshold: number; alpha?: number }
): PairedMetric {
  const alpha = options.alpha ?? 0.05
  const level = sequentialLevel(looks, alpha)
  return pairedMetric(metric, base, head, options.threshold, alpha, true, level)
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
  const cases = run.head.cases.map((h, i) => {
    const sequence = run.sequences?.[i] ?? fixedSequence(pairsOf(h))
    const canary = run.canaries?.[i] ?? null
    return compareCase(run.base.cases[i], h, sequence, canary, options.threshold, alpha)
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
