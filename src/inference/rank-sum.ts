import { median } from '../stats/sample'
import { rankShift } from './hodges-lehmann'
import { normalCdf } from './normal'
import { exactCdf, isExact, midRanks } from './ranks'
import type { TwoSampleTest } from './two-sample'

/**
 * The Wilcoxon–Mann–Whitney rank-sum test of two samples, as R's `wilcox.test(x, y)` computes it:
 * exact when both samples have fewer than 50 values and no ties, otherwise the normal
 * approximation with the tie and continuity corrections. Ranks do not see how far an outlier
 * lies, only which side it is on.
 */

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

/** The rank-sum test on the medians, its shift Hodges–Lehmann's. */
export const RANK_SUM: TwoSampleTest = {
  name: 'rank-sum',
  compare: (a, b) => ({ p: rankSumTest(a, b).pValue, levels: [median(a), median(b)] }),
  shift: rankShift
}
