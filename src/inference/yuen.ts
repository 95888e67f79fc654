import { variance } from '../stats/sample'
import { trimmedMean, winsorize } from '../stats/trimmed'
import { studentTCdf, studentTQuantile } from './student-t'

/** The name the reports give this test, read from the judgement that used it. */
export const TRIMMED_T_TEST = "Yuen's trimmed t-test"

export interface TTestResult {
  /** Trimmed mean of b − trimmed mean of a. */
  diff: number
  /** Two-sided confidence interval of diff at the requested level. */
  ci: [number, number]
  /** Two-sided p-value for diff = 0. */
  p: number
  /** Standard error of diff. */
  se: number
  df: number
}

/**
 * Yuen's test of the difference of trimmed means, with Welch's unequal-variance degrees of freedom
 * (Yuen 1974; Wilcox, "Introduction to Robust Estimation and Hypothesis Testing"). Trimming 20%
 * keeps a few wild values (runs hit by a stalled machine) from dominating both the estimate and
 * the variance; with trim 0, or samples too small to trim, it is exactly Welch's t-test. When
 * neither side has any spread the difference is exact: p is 0 (or 1 when the means agree).
 */
export function trimmedTTest(
  a: readonly number[],
  b: readonly number[],
  options: { trim?: number; level?: number } = {}
): TTestResult {
  const trim = options.trim ?? 0.2
  const level = options.level ?? 0.95
  if (a.length < 2 || b.length < 2)
    throw new RangeError('the t-test needs at least 2 values a side')
  const side = (xs: readonly number[]) => {
    const g = Math.floor(trim * xs.length)
    const h = xs.length - 2 * g
    // Squared standard error of the trimmed mean: winsorized variance scaled to the kept values.
    const d = ((xs.length - 1) * variance(winsorize(xs, g))) / (h * (h - 1))
    return { m: trimmedMean(xs, trim), d, h }
  }
  const [sa, sb] = [side(a), side(b)]
  const diff = sb.m - sa.m
  const se = Math.sqrt(sa.d + sb.d)
  if (se === 0) return { diff, ci: [diff, diff], p: diff === 0 ? 1 : 0, se, df: Infinity }
  const df = (sa.d + sb.d) ** 2 / (sa.d ** 2 / (sa.h - 1) + sb.d ** 2 / (sb.h - 1))
  const p = Math.min(1, 2 * studentTCdf(-Math.abs(diff / se), df))
  const q = studentTQuantile(1 - (1 - level) / 2, df)
  return { diff, ci: [diff - q * se, diff + q * se], p, se, df }
}

/**
 * The test `w` widened by a variance of its own (`between`, of `df` degrees of freedom) added to
 * its difference's, the degrees of freedom of both parts combined (Welch–Satterthwaite).
 */
export function widened(
  w: TTestResult,
  between: { variance: number; df: number },
  alpha: number
): TTestResult {
  const v = w.se ** 2 + between.variance
  const se = Math.sqrt(v)
  const df = v ** 2 / (w.se ** 4 / w.df + between.variance ** 2 / between.df)
  const q = studentTQuantile(1 - alpha / 2, df)
  const p = Math.min(1, 2 * studentTCdf(-Math.abs(w.diff / se), df))
  return { diff: w.diff, ci: [w.diff - q * se, w.diff + q * se], p, se, df }
}
