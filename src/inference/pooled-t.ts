import { mean, populationStd } from '../stats/sample'
import { studentTCdf, studentTQuantile } from './student-t'
import type { TwoSampleTest } from './two-sample'

/**
 * Student's two-sample t-test with pooled variance, as Apache Otava's
 * `TTestSignificanceTester.compare` takes it: scipy's `ttest_ind_from_stats` fed the population
 * standard deviations (`np.std`). An undefined p (both sides constant and equal) is 1.
 */
function pooledTP(a: readonly number[], b: readonly number[]): number {
  const [m1, m2] = [mean(a), mean(b)]
  const [s1, s2] = [populationStd(a, m1), populationStd(b, m2)]
  const [n1, n2] = [a.length, b.length]
  if (n1 + n2 <= 2) return 1
  const df = n1 + n2 - 2
  const pooled = ((n1 - 1) * s1 ** 2 + (n2 - 1) * s2 ** 2) / df
  const t = (m1 - m2) / Math.sqrt(pooled * (1 / n1 + 1 / n2))
  const p = 2 * studentTCdf(-Math.abs(t), df)
  return Number.isNaN(p) ? 1 : p
}

/** The same test read as the `level` interval of the difference of means (unbounded without df). */
function meanShift(a: readonly number[], b: readonly number[], level: number): [number, number] {
  const [m1, m2] = [mean(a), mean(b)]
  const [n1, n2] = [a.length, b.length]
  const df = n1 + n2 - 2
  const pooled =
    ((n1 - 1) * populationStd(a, m1) ** 2 + (n2 - 1) * populationStd(b, m2) ** 2) / Math.max(df, 1)
  const half =
    df > 0
      ? studentTQuantile(1 - (1 - level) / 2, df) * Math.sqrt(pooled * (1 / n1 + 1 / n2))
      : Infinity
  return [m2 - m1 - half, m2 - m1 + half]
}

/** Student's t on the means, as Otava: the reference change-point test. */
export const STUDENT_T: TwoSampleTest = {
  name: "Student's t",
  compare: (a, b) => ({ p: pooledTP(a, b), levels: [mean(a), mean(b)] }),
  shift: (a, b, level = 0.95) => ({ estimate: mean(b) - mean(a), interval: meanShift(a, b, level) })
}
