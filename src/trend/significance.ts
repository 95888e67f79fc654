import { STUDENT_T } from '../inference/pooled-t'
import { RANK_SUM } from '../inference/rank-sum'
import { midRanks } from '../inference/ranks'
import type { TwoSampleTest } from '../inference/two-sample'
import { peakNear, type Candidate } from './qhat'

/**
 * How the change-point detection tests a split and reads its step, chosen by value: `T_TEST`,
 * Apache Otava's Student's t-test ported step for step, or `RANK_TEST`, the rank-sum test, which a
 * few entries far off cannot move.
 */

/** The levels either side of a change point: means for the t-test, medians for the rank test. */
export interface Levels {
  levelBefore: number
  levelAfter: number
}

/** The change from the level before to the level after, relative (0.05 = 5 % higher). */
export const forwardChange = (p: Levels): number =>
  p.levelBefore === 0 ? 0 : p.levelAfter / p.levelBefore - 1

export interface Significance {
  /** The two-sample test a split's two sides are compared by. */
  test: TwoSampleTest
  /** The values of a window its best split is searched on. */
  searched(window: readonly number[]): readonly number[]
  /** The split found on `searched`, placed on the window's own values within `stretch`. */
  placed(window: readonly number[], found: Candidate, stretch: [number, number]): Candidate
  /** The points the merge step retests once the point at `at` is dropped. */
  retested(at: number): number[]
  /** A step's change and 95 % interval relative to the level before, from the entries either side. */
  step(
    p: Levels,
    left: readonly number[],
    right: readonly number[]
  ): { change: number; interval: [number, number] }
}

/** A difference relative to the level before (0 when that level is 0). */
const relative =
  (p: Levels) =>
  (d: number): number =>
    p.levelBefore === 0 ? 0 : d / p.levelBefore

/**
 * Otava's Student's t on the means, searched and placed on the values. Its merge retests the
 * point that took the dropped one's place and the one after it, so the one before keeps the test
 * of a stretch that no longer ends where it did (`merge`, `recompute(weakest_cp_index + 1)`): kept
 * so that the reference finds what Otava finds. A step is the change of means, with its pooled t
 * interval.
 */
export const T_TEST: Significance = {
  test: STUDENT_T,
  searched: window => window,
  placed: (_, found) => found,
  retested: at => [at, at + 1],
  step: (p, left, right) => {
    const rel = relative(p)
    const [lo, hi] = STUDENT_T.shift(left, right).interval
    return { change: forwardChange(p), interval: [rel(lo), rel(hi)] }
  }
}

/**
 * How far the values may move a split the ranks found: the ranks tell which change a window
 * holds, robustly, and the values where it lies, as Otava's Q̂ on them does. Further than 3
 * entries, the values' peak starts to follow what the spell rule left (a spell too near the
 * start): `npm run bench:change-point-placement`.
 */
const PLACEMENT_REACH = 3

/**
 * The rank-sum test on the medians. Q̂ is searched on the window's ranks, so that how far off a
 * spell lies does not decide which change the window splits at; the split is then placed where Q̂
 * on the values peaks within `PLACEMENT_REACH` entries of it, as Otava places it. Its merge
 * retests both neighbours of the dropped point. A step is the Hodges–Lehmann shift with its
 * rank-sum interval, relative to the median before.
 */
export const RANK_TEST: Significance = {
  test: RANK_SUM,
  searched: window => midRanks(window).ranks,
  placed: (window, found, [start, end]) => ({
    ...found,
    index: peakNear(window, start, end, found.index, PLACEMENT_REACH)
  }),
  retested: at => [at - 1, at],
  step: (p, left, right) => {
    const rel = relative(p)
    const { estimate, interval } = RANK_SUM.shift(left, right)
    return { change: rel(estimate), interval: [rel(interval[0]), rel(interval[1])] }
  }
}
