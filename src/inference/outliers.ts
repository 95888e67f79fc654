import { mean, std } from '../stats/sample'
import { studentTQuantile } from './student-t'

/**
 * Which values of a small, roughly normal sample lie too far from the rest to be the same kind of
 * measurement: Rosner's generalized extreme studentized deviate (ESD) test (Rosner, "Percentage
 * Points for a Generalized ESD Many-Outlier Procedure", Technometrics 25(2), 1983; NIST/SEMATECH
 * e-Handbook of Statistical Methods, §1.3.5.17.3). With one suspect it is Grubbs' test. Removing
 * the farthest value and testing again finds several outliers without one hiding another.
 */

/** Test for up to floor(`share` × n) outliers, at level `alpha` for clean normal samples. */
export interface OutlierRule {
  alpha: number
  share: number
}

const criticals = new Map<string, number>()

/** Rosner's critical value λ for the i-th removal (1-based) from n values. */
export function esdCritical(n: number, i: number, alpha: number): number {
  const key = `${n},${i},${alpha}`
  const known = criticals.get(key)
  if (known !== undefined) return known
  const p = 1 - alpha / (2 * (n - i + 1))
  const t = studentTQuantile(p, n - i - 1)
  const lambda = ((n - i) * t) / Math.sqrt((n - i - 1 + t * t) * (n - i + 1))
  criticals.set(key, lambda)
  return lambda
}

/** Per removal: the index removed and its studentized deviate R from the values left before it. */
function deviates(xs: readonly number[], most: number): { index: number; r: number }[] {
  const left = xs.map((x, index) => ({ x, index }))
  const out: { index: number; r: number }[] = []
  for (let i = 0; i < most; i++) {
    const values = left.map(v => v.x)
    const [m, s] = [mean(values), std(values)]
    if (s === 0) break
    let far = 0
    for (let j = 1; j < left.length; j++) {
      if (Math.abs(left[j].x - m) > Math.abs(left[far].x - m)) far = j
    }
    out.push({ index: left[far].index, r: Math.abs(left[far].x - m) / s })
    left.splice(far, 1)
  }
  return out
}

/**
 * Indices (ascending) of the outliers: the values removed up to the last removal whose deviate
 * exceeds its critical value. None with fewer than 1 / `share` values, or no spread.
 */
export function outliers(xs: readonly number[], rule: OutlierRule): number[] {
  const most = Math.floor(rule.share * xs.length)
  const steps = deviates(xs, most)
  let found = 0
  steps.forEach((s, i) => {
    if (s.r > esdCritical(xs.length, i + 1, rule.alpha)) found = i + 1
  })
  return steps
    .slice(0, found)
    .map(s => s.index)
    .sort((a, b) => a - b)
}
