import { studentTQuantile } from './student-t'
import { normalQuantile } from './normal'

/**
 * The smallest true mean a one-sample t-test (a paired test on differences) of `n` values with
 * standard deviation `sd`, two-sided at `level`, finds with probability `power`:
 * (t(1 − level/2, n − 1) + t(power, n − 1)) · sd / √n. This is the usual approximation of the
 * noncentral t (Cohen, "Statistical Power Analysis", 1988, §2.4; the z form 2.80 · sd / √n at 5 %
 * and 80 % power is its limit for large n); it slightly understates the shift for very few values
 * (__tests__/stats-power.test.ts measures how much).
 */
export function detectableShift(sd: number, n: number, level: number, power = 0.8): number {
  if (!Number.isInteger(n) || n < 2)
    throw new RangeError(`power needs at least 2 values (got ${n})`)
  return shiftFound(sd / Math.sqrt(n), n - 1, level, power)
}

/**
 * The same for any t-test given its standard error and degrees of freedom (Welch's or Yuen's
 * fractional ones included): (t(1 − level/2, df) + t(power, df)) · se. An exact difference (se 0)
 * finds every shift.
 */
export function shiftFound(se: number, df: number, level: number, power = 0.8): number {
  if (se === 0) return 0
  return (studentTQuantile(1 - level / 2, df) + studentTQuantile(power, df)) * se
}

/**
 * The fewest values whose `detectableShift` at `level` and `power` is at most `shift`, up to
 * `most` (returned when even that many fall short); null without a shift to find or a spread.
 */
export function valuesFor(
  sd: number,
  shift: number,
  level: number,
  options: { power?: number; most?: number } = {}
): number | null {
  const { power = 0.8, most = 100_000 } = options
  if (!(shift > 0) || !(sd > 0)) return null
  let [low, high] = [2, most]
  if (detectableShift(sd, high, level, power) > shift) return most
  // detectableShift falls as values are added: the first n at or below the shift.
  while (low < high) {
    const mid = Math.floor((low + high) / 2)
    if (detectableShift(sd, mid, level, power) <= shift) high = mid
    else low = mid + 1
  }
  return low
}

/**
 * An upper confidence bound of a normal sample's standard deviation: `sd` of `n` values, with
 * σ ≤ sd · √((n − 1) / χ²(1 − confidence, n − 1)) at `confidence`. The χ² quantile is Wilson and
 * Hilferty's cube-root approximation (within about 1 % of the exact quantile from 3 degrees of
 * freedom on). A detectable change computed from the sample's own s.d. has less than its stated
 * power, since the sample s.d. is more often below σ than above it at a few values.
 */
export function sdUpperBound(sd: number, n: number, confidence: number): number {
  if (!Number.isInteger(n) || n < 2)
    throw new RangeError(`a spread needs at least 2 values (got ${n})`)
  const c = 2 / (9 * (n - 1))
  const root = Math.max(1 - c + normalQuantile(1 - confidence) * Math.sqrt(c), 1e-3)
  return sd / Math.sqrt(root ** 3)
}
