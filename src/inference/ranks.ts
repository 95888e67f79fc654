/**
 * What the rank-sum test and the Hodges–Lehmann interval read, as R's `wilcox.test` does: the
 * mid-ranks of two samples together and the exact distribution of their rank-sum statistic, used
 * when both samples have fewer than 50 values and no ties (the normal approximation otherwise).
 */

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
export function exactCdf(m: number, n: number): Float64Array {
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
export const isExact = (m: number, n: number, ties: number): boolean =>
  m < 50 && n < 50 && ties === 0
