import { profileKey } from '../profile/definition'
import type { HistoryEntry } from '../history/schema'
import type { CaseResult, Result, TraceTally } from '../result/schema'
import { baseSeries, selectBaseline, type BaselineChoice } from './baseline'
import { jobDrift, type Drift } from './drift'
import { logSeconds } from './log-seconds'
import { median } from '../stats/sample'
import { trimmedMean } from '../stats/trimmed'
import { TRIMMED_T_TEST, trimmedTTest, widened, type TTestResult } from '../inference/yuen'
import { shiftFound, valuesFor } from '../inference/power'
import { verdictMetric } from '../metrics/verdict-metric'
import {
  caseVerdicts,
  judgement,
  shiftToTell,
  type CaseVerdict,
  type TestUsed,
  type Verdict
} from './verdict'
import { traitsOf } from '../profile/traits'
import { diagnose, type Diagnosed } from './multiplicity'
import { sumTraceTallies } from '../metrics/trace-tally'
import { fmtPercent } from '../text/percent'

export type { Verdict }

/**
 * `run-medians`: Yuen's trimmed t-test (Welch's below 10 runs) on the logs of per-run medians
 * (see docs/regression.md).
 * `threshold-only`: no test was possible; the verdict is the relative change against the
 * threshold alone, and `note` says why.
 */
type Method = 'run-medians' | 'threshold-only'

export interface MetricComparison {
  metric: string
  /** Headline metrics (roundtrip, frontend send/recv) go in the main table, the rest are folded. */
  headline: boolean
  /**
   * Only the case's verdict metric (`verdictMetric`; its headline when the baseline lacks it)
   * decides `Comparison.regression`. The other metrics locate a change; the millisecond-sized
   * ones drift by 20–50% between jobs on a shared machine (docs/regression.md), which no
   * within-job test can see.
   */
  gating: boolean
  /**
   * Seconds: exp of the 10%-trimmed mean of log run medians, a geometric mean robust to wild runs
   * (`run-medians`), or the best run mean (`threshold-only` without samples).
   */
  baseline: number
  pr: number
  /** pr / baseline − 1. */
  change: number
  /** pr − baseline, seconds. */
  delta: number
  /**
   * 95% confidence interval of `change`, holding the drift between jobs when the series' jobs
   * measured it; null without a test.
   */
  ci: [number, number] | null
  p: number | null
  runs: { baseline: number; pr: number }
  method: Method
  note: string | null
  /**
   * The drift between jobs the comparison allowed for; null without a test. Unmeasured (too few
   * jobs), a change must clear the threshold to be called.
   */
  drift: Drift | null
  verdict: Verdict
  /** The change the test finds with 80 % power at this spread (see `Seen`); null without a test. */
  detectable: number | null
  /** About how many runs a side would give it that power to tell this case; null without a test. */
  needed: number | null
}

export interface CaseComparison {
  caseId: string
  caseName: string
  /** The load profile's key (e.g. `minimal@5`, `burst`). */
  profile: string
  baseline: BaselineChoice
  /** Empty when there is no baseline; the diagnostics' p-values are adjusted across the case. */
  metrics: (MetricComparison & Diagnosed)[]
  /** What this run's traces brought back over all its runs; null without hops from traces. */
  traces: TraceTally | null
}

export interface Comparison {
  threshold: number
  alpha: number
  pr: {
    sha: string | null
    ref: string | null
    /** Null when the run measured no GNES case. */
    gnesVersion: string | null
    engine: Result['meta']['engine']
    cpusAwake: boolean
    load: Result['meta']['load']
  }
  cases: CaseComparison[]
  /** What was compared, and by which test. */
  test: TestUsed
  /** True when the verdict metric of any case says regression (see `MetricComparison.gating`). */
  regression: boolean
  /** Each compared case's answer. */
  verdicts: CaseVerdict[]
}

export interface CompareOptions {
  /** Minimum relative change worth a verdict, as a fraction (the `alert-threshold` input). */
  threshold: number
  baseRef: string | null
  mergeBaseSha: string | null
  /** Significance level of the two-sided test; 0.05 unless a caller insists. */
  alpha?: number
}

/**
 * Share of runs cut off each end of each side: one wild run (a stalled machine) per end from 10
 * runs on. Fewer runs are not trimmed, because cutting 1 of 5 costs more power than it buys.
 */
const TRIM = 0.1

/** The values and the test of `run-medians`: from 1 / TRIM runs on, one run is cut off each end. */
const RUN_MEDIANS: TestUsed = {
  values: `per-run medians of per-request samples, combined as a ${fmtPercent(TRIM, { decimals: 0 })}-trimmed geometric mean`,
  test: `${TRIMMED_T_TEST} on their logarithms (Welch's below ${Math.ceil(1 / TRIM)} runs a side)`
}

const isHeadline = (metric: string): boolean => !metric.includes('->') && !/^r\d+:/.test(metric)

/** Non-empty per-run sample arrays of one metric, measured runs only. */
function prRuns(c: CaseResult, metric: string): number[][] {
  return c.runs
    .filter(r => !r.warmup)
    .map(r => r.samples[metric] ?? [])
    .filter(s => s.length > 0)
}

/**
 * History pools the measured runs' samples; each run's summary says how many were its own, so
 * the pool splits back into runs. Null when the counts do not add up (the pool was trimmed).
 */
function baselineRuns(e: HistoryEntry, metric: string): number[][] | null {
  const pooled = e.samples?.[metric]
  if (!pooled) return null
  const counts = e.runs.filter(r => !r.warmup).map(r => r.summaries[metric]?.n)
  if (counts.some(n => n === undefined) || counts.reduce((a, n) => a + n!, 0) !== pooled.length) {
    return null
  }
  const runs: number[][] = []
  let at = 0
  for (const n of counts as number[]) {
    runs.push(pooled.slice(at, at + n))
    at += n
  }
  return runs.filter(r => r.length > 0)
}

/** A run's median request, in log seconds. */
export const logMedian = (run: readonly number[]): number => logSeconds(median(run))

const logMedians = (runs: number[][]): number[] => runs.map(logMedian)

function thresholdOnly(
  metric: string,
  gating: boolean,
  baseline: number,
  pr: number,
  runs: MetricComparison['runs'],
  threshold: number,
  note: string
): MetricComparison {
  const change = pr / baseline - 1
  return {
    metric,
    headline: isHeadline(metric),
    gating,
    baseline,
    pr,
    delta: pr - baseline,
    change,
    ci: null,
    p: null,
    runs,
    method: 'threshold-only',
    note,
    drift: null,
    ...judgement(change, null, threshold, { detectable: null, needed: null })
  }
}

/**
 * One metric. Requests inside a run are not independent (in blocking cases each one queues
 * behind the previous ones), so the unit of replication is the run: its median summarises it
 * robustly, and the test compares the runs' log-medians, making the change a ratio.
 */
export function compareMetric(
  metric: string,
  baseline: number[][],
  pr: number[][],
  threshold: number,
  alpha = 0.05,
  gating = metric === 'roundtrip',
  drift: Drift | null = null
): MetricComparison {
  const a = logMedians(baseline)
  const b = logMedians(pr)
  const runs = { baseline: a.length, pr: b.length }
  if (a.length < 2 || b.length < 2) {
    const side = a.length < 2 ? 'baseline' : 'PR'
    return thresholdOnly(
      metric,
      gating,
      Math.exp(trimmedMean(a, TRIM)),
      Math.exp(trimmedMean(b, TRIM)),
      runs,
      threshold,
      `no test: the ${side} has fewer than 2 measured runs`
    )
  }
  const w = withDrift(trimmedTTest(a, b, { trim: TRIM, level: 1 - alpha }), drift, alpha)
  const change = Math.exp(w.diff) - 1
  const ci: [number, number] = [Math.exp(w.ci[0]) - 1, Math.exp(w.ci[1]) - 1]
  const [baseMean, prMean] = [Math.exp(trimmedMean(a, TRIM)), Math.exp(trimmedMean(b, TRIM))]
  return {
    metric,
    headline: isHeadline(metric),
    gating,
    baseline: baseMean,
    pr: prMean,
    delta: prMean - baseMean,
    change,
    ci,
    p: w.p,
    runs,
    method: 'run-medians',
    note: null,
    drift,
    ...judgement(
      change,
      ci,
      threshold,
      seen(w, Math.min(a.length, b.length), threshold, alpha, drift),
      drift !== null && drift.logSd === null ? threshold : 0
    )
  }
}

/**
 * The within-job test widened by the drift between jobs: each side's job carries a level of its
 * own, so the difference gains twice the drift's variance.
 */
function withDrift(w: TTestResult, drift: Drift | null, alpha: number): TTestResult {
  if (drift === null || drift.logSd === null || drift.logSd === 0) return w
  return widened(w, { variance: 2 * drift.logSd ** 2, df: drift.jobs - 1 }, alpha)
}

/**
 * What the test of `runs` runs a side could have seen, on the log scale of its difference: the
 * shift found with 80 % power, and the runs a side giving that power for this case. The runs are
 * counted as for a one-sample test of spread se·√runs (df n − 1 where Welch's has about
 * 2n − 2), so the count errs high.
 */
function seen(
  w: { diff: number; se: number; df: number },
  runs: number,
  threshold: number,
  alpha: number,
  drift: Drift | null
): { detectable: number; needed: number | null } {
  return {
    detectable: Math.exp(shiftFound(w.se, w.df, alpha)) - 1,
    // History mode reads "no change" from the same interval as a change: one level for both.
    // More runs narrow only the part of the spread inside a job, not the drift between jobs.
    needed:
      drift?.logSd || drift?.logSd === null
        ? null
        : valuesFor(w.se * Math.sqrt(runs), shiftToTell(w.diff, threshold).shift, alpha)
  }
}

function compareCase(
  c: CaseResult,
  entry: HistoryEntry,
  series: readonly HistoryEntry[],
  threshold: number,
  alpha: number
): MetricComparison[] {
  const out: MetricComparison[] = []
  const gate = verdictMetric(c)
  for (const metric of c.metrics) {
    const pr = prRuns(c, metric)
    if (pr.length === 0) continue
    const base = baselineRuns(entry, metric)
    if (base && base.length > 0) {
      const drift = jobDrift(series, metric, TRIM)
      out.push(compareMetric(metric, base, pr, threshold, alpha, metric === gate, drift))
      continue
    }
    const prBest = c.best[metric]
    const baseBest = entry.best[metric]
    if (prBest === undefined || baseBest === undefined || baseBest <= 0) continue
    const runs = { baseline: entry.runs.filter(r => !r.warmup).length, pr: pr.length }
    const why = entry.samples
      ? 'baseline samples do not split into its runs'
      : 'the baseline has no per-request samples'
    out.push(
      thresholdOnly(
        metric,
        metric === gate,
        baseBest,
        prBest,
        runs,
        threshold,
        `no test (${why}): published figures`
      )
    )
  }
  // A baseline recorded before the verdict metric existed: the headline decides instead.
  if (!out.some(m => m.gating)) {
    const headline = out.find(m => m.metric === c.headline)
    if (headline) headline.gating = true
  }
  return out
}

/**
 * Compares every case and profile of a pull request's result against its baseline in `history`.
 * Rate sweeps are reported, not judged: their steps differ from run to run.
 */
export function compareResult(
  result: Result,
  history: readonly HistoryEntry[],
  options: CompareOptions
): Comparison {
  const alpha = options.alpha ?? 0.05
  const judged = result.cases.filter(c => traitsOf(c.profile).compared !== 'reported')
  const cases = judged.map((c): CaseComparison => {
    const query = {
      caseId: c.id,
      profile: c.profile,
      load: result.meta.load,
      engine: result.meta.engine,
      cpusAwake: result.meta.cpusAwake,
      baseRef: options.baseRef,
      mergeBaseSha: options.mergeBaseSha
    }
    const baseline = selectBaseline(history, query)
    return {
      caseId: c.id,
      caseName: c.name,
      profile: profileKey(c.profile),
      baseline,
      metrics: baseline.entry
        ? diagnose(
            compareCase(c, baseline.entry, baseSeries(history, query), options.threshold, alpha),
            alpha
          )
        : [],
      traces: sumTraceTallies(c.runs.map(r => r.traces))
    }
  })
  return {
    threshold: options.threshold,
    alpha,
    pr: {
      sha: result.meta.git.sha,
      ref: result.meta.git.ref,
      gnesVersion: result.meta.gnes?.version ?? null,
      engine: result.meta.engine,
      cpusAwake: result.meta.cpusAwake,
      load: result.meta.load
    },
    cases,
    test: RUN_MEDIANS,
    regression: cases.some(c => c.metrics.some(m => m.gating && m.verdict === 'regression')),
    verdicts: caseVerdicts(cases)
  }
}
