import tCdf from '@stdlib/stats-base-dists-t-cdf'
import tQuantile from '@stdlib/stats-base-dists-t-quantile'

/** Student's t distribution, from stdlib: the one every test and interval of the project reads. */

/** P(T ≤ t) for Student's t with df degrees of freedom (df may be fractional, as Welch's is). */
export const studentTCdf = (t: number, df: number): number => tCdf(t, df)

/** The t with P(T ≤ t) = p. */
export function studentTQuantile(p: number, df: number): number {
  if (p <= 0 || p >= 1) throw new RangeError('quantile probability must be in (0, 1)')
  return tQuantile(p, df)
}
