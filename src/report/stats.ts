/**
 * Small, dependency-free statistics for the regression verdict. Pure functions over number
 * arrays; the numerical routines follow the textbook continued-fraction / Lanczos forms.
 */

export function median(xs: readonly number[]): number {
  if (xs.length === 0) throw new RangeError('median of an empty sample')
  const s = [...xs].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2
}

export function mean(xs: readonly number[]): number {
  if (xs.length === 0) throw new RangeError('mean of an empty sample')
  return xs.reduce((a, b) => a + b, 0) / xs.length
}

/** Unbiased (n − 1) sample variance. */
export function variance(xs: readonly number[]): number {
  if (xs.length < 2) throw new RangeError('variance needs at least 2 values')
  const m = mean(xs)
  return xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1)
}

const LANCZOS = [
  676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7
]

/** ln Γ(x) for x > 0 (Lanczos, g = 7; about 15 significant digits). */
export function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x)
  const z = x - 1
  let a = 0.99999999999980993
  const t = z + 7.5
  LANCZOS.forEach((c, i) => {
    a += c / (z + i + 1)
  })
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a)
}

/** Continued fraction of the incomplete beta function (modified Lentz). */
function betaContinuedFraction(a: number, b: number, x: number): number {
  const tiny = 1e-300
  let c = 1
  let d = 1 - ((a + b) * x) / (a + 1)
  if (Math.abs(d) < tiny) d = tiny
  d = 1 / d
  let h = d
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m
    let aa = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2))
    d = 1 + aa * d
    if (Math.abs(d) < tiny) d = tiny
    c = 1 + aa / c
    if (Math.abs(c) < tiny) c = tiny
    d = 1 / d
    h *= d * c
    aa = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1))
    d = 1 + aa * d
    if (Math.abs(d) < tiny) d = tiny
    c = 1 + aa / c
    if (Math.abs(c) < tiny) c = tiny
    d = 1 / d
    const del = d * c
    h *= del
    if (Math.abs(del - 1) < 1e-14) break
  }
  return h
}

/** Regularized incomplete beta I_x(a, b). */
export function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0
  if (x >= 1) return 1
  const front = Math.exp(
    logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x)
  )
  // The continued fraction converges fast only on this side; use the symmetry on the other.
  return x < (a + 1) / (a + b + 2)
    ? (front * betaContinuedFraction(a, b, x)) / a
    : 1 - (front * betaContinuedFraction(b, a, 1 - x)) / b
}

/** P(T ≤ t) for Student's t with df degrees of freedom (df may be fractional, as Welch's is). */
export function studentTCdf(t: number, df: number): number {
  if (!Number.isFinite(t)) return t > 0 ? 1 : 0
  const tail = 0.5 * incompleteBeta(df / (df + t * t), df / 2, 0.5)
  return t > 0 ? 1 - tail : tail
}

/** The t with P(T ≤ t) = p, by bisection (the CDF is monotone; 100 halvings is exact enough). */
export function studentTQuantile(p: number, df: number): number {
  if (p <= 0 || p >= 1) throw new RangeError('quantile probability must be in (0, 1)')
  let lo = -1e6
  let hi = 1e6
  for (let i = 0; i < 100; i++) {
    const mid = (lo + hi) / 2
    if (studentTCdf(mid, df) < p) lo = mid
    else hi = mid
  }
  return (lo + hi) / 2
}

/** The mean of what is left after cutting floor(trim × n) values off each end of the sorted sample. */
export function trimmedMean(xs: readonly number[], trim: number): number {
  const s = [...xs].sort((a, b) => a - b)
  const g = Math.floor(trim * s.length)
  return mean(s.slice(g, s.length - g))
}

/** The sample with its g smallest and g largest values pulled in to the nearest kept value. */
function winsorize(xs: readonly number[], g: number): number[] {
  const s = [...xs].sort((a, b) => a - b)
  return s.map((_, i) => s[Math.min(Math.max(i, g), s.length - 1 - g)])
}

export interface TTestResult {
  /** Trimmed mean of b − trimmed mean of a. */
  diff: number
  /** Two-sided confidence interval of diff at the requested level. */
  ci: [number, number]
  /** Two-sided p-value for diff = 0. */
  p: number
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
  if (se === 0) return { diff, ci: [diff, diff], p: diff === 0 ? 1 : 0, df: Infinity }
  const df = (sa.d + sb.d) ** 2 / (sa.d ** 2 / (sa.h - 1) + sb.d ** 2 / (sb.h - 1))
  const p = Math.min(1, 2 * studentTCdf(-Math.abs(diff / se), df))
  const q = studentTQuantile(1 - (1 - level) / 2, df)
  return { diff, ci: [diff - q * se, diff + q * se], p, df }
}
