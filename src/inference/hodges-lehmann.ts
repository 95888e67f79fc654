import { exactCdf, isExact, midRanks } from './ranks'
import { normalQuantile } from './normal'
import type { Shift } from './two-sample'

/**
 * The Hodges–Lehmann shift of two samples with the interval of the rank-sum test, as R's
 * `wilcox.test(x, y, conf.int = TRUE)` computes them.
 */

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

/**
 * Hodges–Lehmann shift of y from x (the median of y_j − x_i) with its `level` (0.95) interval,
 * by the rank-sum test.
 */
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
