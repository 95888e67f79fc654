import type { HistoryEntry } from '../history/schema'
import { mean, variance } from '../stats/sample'
import { trimmedMean } from '../stats/trimmed'
import { logSeconds } from './log-seconds'

/**
 * How far separate jobs of one series land apart beyond what each job's runs show: the drift a
 * history-mode comparison cannot see inside its own job (docs/regression.md, *Drift between
 * jobs*). Measured from the series' recorded jobs on the base branch.
 */
export interface Drift {
  /** Recorded jobs of the series it was measured from (the newest `DRIFT_JOBS`). */
  jobs: number
  /**
   * Standard deviation of a job's level (log scale) around the series' own, with the part its
   * runs explain taken out; null under `MIN_DRIFT_JOBS` jobs, when it cannot be measured.
   */
  logSd: number | null
}

/** Fewer jobs than this give no spread worth a test (1 degree of freedom). */
export const MIN_DRIFT_JOBS = 3

/** The newest jobs of a series whose spread is taken: enough for a spread, recent enough to fit. */
export const DRIFT_JOBS = 10

/** A job's level and the squared standard error its runs give it. */
function jobLevel(
  e: HistoryEntry,
  metric: string,
  trim: number
): { level: number; se2: number } | null {
  const logs = e.runs
    .filter(r => !r.warmup && r.summaries[metric] !== undefined && r.summaries[metric].n > 0)
    .map(r => logSeconds(r.summaries[metric].median))
  if (logs.length === 0) return null
  return {
    level: trimmedMean(logs, trim),
    se2: logs.length < 2 ? 0 : variance(logs) / logs.length
  }
}

/**
 * The drift between jobs of `series` (its entries newest first) for one metric: the variance of
 * the jobs' levels less the mean variance their own runs explain (a random-effects estimate by
 * moments, floored at zero), over the newest `DRIFT_JOBS` jobs that measured the metric. A real
 * step among them counts as drift, which widens intervals rather than narrows them.
 */
export function jobDrift(series: readonly HistoryEntry[], metric: string, trim: number): Drift {
  const jobs = series
    .map(e => jobLevel(e, metric, trim))
    .filter((j): j is NonNullable<typeof j> => j !== null)
    .slice(0, DRIFT_JOBS)
  if (jobs.length < MIN_DRIFT_JOBS) return { jobs: jobs.length, logSd: null }
  const between = variance(jobs.map(j => j.level)) - mean(jobs.map(j => j.se2))
  return { jobs: jobs.length, logSd: Math.sqrt(Math.max(0, between)) }
}
