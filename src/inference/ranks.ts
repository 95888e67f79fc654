import erfc from '@stdlib/math-base-special-erfc'
import { normalQuantile } from '../stats/normal'

/**
 * The Wilcoxon–Mann–Whitney rank-sum test of two samples and the Hodges–Lehmann shift with its
 * interval, as R's `wilcox.test(x, y, conf.int = TRUE)` computes them: exact when both samples
 * have fewer than 50 values and no ties, otherwise the normal approximation with the tie and
 * continuity corrections. Ranks do not see how far an outlier lies, only which side it is on.
 */

/** P(Z ≤ z) for a standard normal Z. */
const normalCdf = (z: number): number => 0.5 * erfc(-z / Math.SQRT2)

/** Mid-ranks (1-based) of `values`, and Σ(t³ − t) over the groups of t tied values. */
export function midRanks(values: readonly number[]): { ranks: number[]; ties: number } {
  const order = values.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0])
  const ranks = new Array<number>(values.length)
  let ties = 0
  for (let i = 0; i < order.length;) {
    let j = i
    while (j + 1 < order.length && order[j + 1][0] === order[i][0]) j++
    for (let k = i; k <= j; k++) ranks[order[k][1]] = (i + j) / 2 + 1
    const t = j - i + 1
    ties += t ** 3 - t
    i = j + 1
  }
  return { ranks, ties }
}

const exactCache = new Map<string, Float64Array>()

/**
 * P(W ≤ w) for w = 0…mn, W the rank-sum statistic of m values among m + n without ties (R's
 * `pwilcox`): counts of the m-subsets of ranks by their sum, built one rank at a time.
 */
function exactCdf(m: number, n: number): Float64Array {
  const key = `${m},${n}`
  const hit = exactCache.get(key)
  if (hit) return hit
  const top = m * n
  // ways[j][u]: subsets of j of the ranks so far whose U (sum − j(j+1)/2) is u.
  const ways = Array.from({ length: m + 1 }, () => new Float64Array(top + 1))
  ways[0][0] = 1
  for (let r = 1; r <= m + n; r++)
    for (let j = Math.min(r, m); j >= 1; j--) {
      // Adding rank r as the j-th chosen raises U by r − j, as long as r − j ≤ n.
      const shift = r - j
      if (shift > n) continue
      const from = ways[j - 1]
      const to = ways[j]
      for (let u = top - shift; u >= 0; u--) to[u + shift] += from[u]
    }
  const counts = ways[m]
  const total = counts.reduce((a, b) => a + b, 0)
  const cdf = new Float64Array(top + 1)
  let run = 0
  for (let u = 0; u <= top; u++) cdf[u] = (run += counts[u]) / total
  exactCache.set(key, cdf)
  return cdf
}

/** Whether R would use the exact distribution for these samples. */
const isExact = (m: number, n: number, ties: number): boolean => m < 50 && n < 50 && ties === 0

export interface RankTest {
  /** R's W: the pairs (x_i, y_j) with x_i > y_j, ties counting a half. */
  w: number
  /** Two-sided p; 1 when a side is empty or every value is the same. */
  pValue: number
}

/** The two-sided rank-sum test of x against y (R's `wilcox.test(x, y)$p.value`). */
export function rankSumTest(x: readonly number[], y: readonly number[]): RankTest {
  const m = x.length
  const n = y.length
  if (m === 0 || n === 0) return { w: 0, pValue: 1 }
  const { ranks, ties } = midRanks([...x, ...y])
  const w = ranks.slice(0, m).reduce((a, b) => a + b, 0) - (m * (m + 1)) / 2
  if (isExact(m, n, ties)) {
    const cdf = exactCdf(m, n)
    const tail = w > (m * n) / 2 ? 1 - cdf[w - 1] : cdf[w]
    return { w, pValue: Math.min(1, 2 * tail) }
  }
  const big = m + n
  const sigma = Math.sqrt(((m * n) / 12) * (big + 1 - ties / (big * (big - 1))))
  if (sigma === 0) return { w, pValue: 1 }
  const d = w - (m * n) / 2
  const z = (d - Math.sign(d) * 0.5) / sigma
  return { w, pValue: Math.min(1, 2 * normalCdf(-Math.abs(z))) }
}

/** The shift of y from x (Hodges–Lehmann: the median of y_j − x_i) and its interval. */
export interface Shift {
  estimate: number
  interval: [number, number]
}

/**
 * The smallest k with P(W ≤ k − 1) … the number of the sorted differences cut from each end
 * for a `level` interval: R's exact `qwilcox(α/2, m, n)` (at least 1), or its normal
 * approximation without corrections (Hollander & Wolfe) for large or tied samples.
 */
function cut(m: number, n: number, ties: number, level: number): number {
  const alpha = 1 - level
  if (isExact(m, n, ties)) {
    const cdf = exactCdf(m, n)
    let q = 0
    while (cdf[q] < alpha / 2) q++
    return Math.max(q, 1)
  }
  const sigma = Math.sqrt((m * n * (m + n + 1)) / 12)
  return Math.max(1, Math.floor((m * n) / 2 - normalQuantile(1 - alpha / 2) * sigma))
}

/** Hodges–Lehmann shift of y from x with its `level` (0.95) interval, by the rank-sum test. */
export function rankShift(x: readonly number[], y: readonly number[], level = 0.95): Shift {
  const diffs: number[] = []
  for (const b of y) for (const a of x) diffs.push(b - a)
  diffs.sort((a, b) => a - b)
  const total = diffs.length
  const mid = (total - 1) / 2
  const estimate = (diffs[Math.floor(mid)] + diffs[Math.ceil(mid)]) / 2
  const { ties } = midRanks([...x, ...y])
  const k = Math.min(cut(x.length, y.length, ties, level), Math.ceil(total / 2))
  return { estimate, interval: [diffs[k - 1], diffs[total - k]] }
}
