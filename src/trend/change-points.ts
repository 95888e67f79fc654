import { mean, populationStd } from '../stats/sample'
import { studentTCdf } from '../stats/student-t'
import { bestSplit, type Candidate } from './qhat'

/**
 * Change points of one series by Apache Otava's method (Fleming et al., "Hunter: Using Change
 * Point Detection to Hunt for Performance Regressions", ICPE 2023; `otava/analysis.py`
 * `compute_change_points`): E-divisive means run in sliding windows, each split kept while a
 * Student's t-test calls its two sides different at a relaxed level (weak change points), then
 * the weak points merged bottom-up until every one left passes `maxPValue` and
 * `minMagnitude`. Ported step for step, so that it finds what Otava finds on the same series
 * (`__tests__/change-points.test.ts` runs both).
 */

export interface ChangePointOptions {
  /** Points per sliding window of the split step (Otava: 50). */
  windowLength: number
  /** The final level of the t-test (Otava: 0.001); the split step uses 10× it. */
  maxPValue: number
  /** A point whose p passes must also move the mean by more than this (relative; Otava: 0). */
  minMagnitude: number
}

export const OTAVA_DEFAULTS: ChangePointOptions = {
  windowLength: 50,
  maxPValue: 0.001,
  minMagnitude: 0
}

/** A step in the series: the first index of the new level, and the two levels around it. */
export interface ChangePoint {
  index: number
  qhat: number
  pValue: number
  meanBefore: number
  meanAfter: number
  sdBefore: number
  sdAfter: number
}

/** The change from the level before to the level after, relative (0.05 = 5 % higher). */
export const forwardChange = (p: ChangePoint): number =>
  p.meanBefore === 0 ? 0 : p.meanAfter / p.meanBefore - 1

/** Otava's magnitude: the larger of the forward and backward relative changes. */
function magnitude(p: ChangePoint): number {
  const back = p.meanAfter === 0 ? 0 : p.meanBefore / p.meanAfter - 1
  return Math.max(Math.abs(forwardChange(p)), Math.abs(back))
}

/**
 * Otava's `TTestSignificanceTester.compare`: scipy's `ttest_ind_from_stats` (pooled variance)
 * fed the population standard deviations. An undefined p (both sides constant and equal) is 1.
 */
function compare(
  left: readonly number[],
  right: readonly number[]
): Omit<ChangePoint, 'index' | 'qhat'> {
  const m1 = mean(left)
  const m2 = mean(right)
  // Population standard deviations, as Otava's `np.std`.
  const s1 = populationStd(left, m1)
  const s2 = populationStd(right, m2)
  const n1 = left.length
  const n2 = right.length
  let pValue = 1
  if (n1 + n2 > 2) {
    const df = n1 + n2 - 2
    const pooled = ((n1 - 1) * s1 ** 2 + (n2 - 1) * s2 ** 2) / df
    const t = (m1 - m2) / Math.sqrt(pooled * (1 / n1 + 1 / n2))
    const p = 2 * studentTCdf(-Math.abs(t), df)
    pValue = Number.isNaN(p) ? 1 : p
  }
  return { pValue, meanBefore: m1, meanAfter: m2, sdBefore: s1, sdAfter: s2 }
}

/** Stretches [start, stop) between sorted change points, over `from`…`to`. */
function intervals(
  points: readonly { index: number }[],
  from: number,
  to: number
): [number, number][] {
  const bounds = [from, ...points.map(p => p.index), to]
  const out: [number, number][] = []
  for (let i = 0; i + 1 < bounds.length; i++)
    if (bounds[i] !== bounds[i + 1]) out.push([bounds[i], bounds[i + 1]])
  return out
}

/**
 * The t-test of a candidate against its neighbours: inside a stretch it splits that stretch; on
 * a stretch's end (an existing point, recomputed) it compares the stretches on either side.
 */
function tested(s: readonly number[], c: Candidate, within: [number, number][]): ChangePoint {
  for (let i = 0; i < within.length; i++) {
    const [start, stop] = within[i]
    if (stop === c.index && i + 1 < within.length) {
      const next = within[i + 1]
      return { ...c, ...compare(s.slice(start, stop), s.slice(next[0], next[1])) }
    }
    if (start < c.index && c.index < stop)
      return { ...c, ...compare(s.slice(start, c.index), s.slice(c.index, stop)) }
  }
  throw new RangeError(`candidate ${c.index} lies in no stretch`)
}

/** E-divisive on s[from:to]: the best split of any stretch, kept while significant. */
function divisive(
  s: readonly number[],
  from: number,
  to: number,
  maxPValue: number
): ChangePoint[] {
  // The window is a series of its own, as Otava slices it before detecting.
  const w = s.slice(from, to)
  const points: ChangePoint[] = []
  for (;;) {
    const stretches = intervals(points, 0, w.length)
    let best: Candidate | null = null
    for (const [a, b] of stretches) {
      const c = b - a > 1 ? bestSplit(w, a, b) : null
      if (c && (best === null || c.qhat > best.qhat)) best = c
    }
    if (!best) break
    const point = tested(w, best, stretches)
    if (!(point.pValue <= maxPValue)) break
    points.push(point)
    points.sort((x, y) => x.index - y.index)
  }
  return points.map(p => ({ ...p, index: p.index + from }))
}

/** Otava's split step: weak change points from overlapping windows, retested on the whole. */
function split(s: readonly number[], windowLength: number, maxPValue: number): ChangePoint[] {
  const step = Math.floor(windowLength / 2)
  const points: ChangePoint[] = []
  let start = 0
  while (start < s.length) {
    const end = Math.min(start + windowLength, s.length)
    const found = divisive(s, start, end, maxPValue)
    const last = found.length ? found[found.length - 1].index : 0
    start = Math.max(last, start + step)
    for (const p of found) if (!points.some(q => q.index === p.index)) points.push(p)
  }
  points.sort((x, y) => x.index - y.index)
  const all = intervals(points, 0, s.length)
  return points.map(p => tested(s, p, all))
}

/** Otava's merge step: drop the weakest point and retest its neighbours until all pass. */
function merge(points: ChangePoint[], s: readonly number[], o: ChangePointOptions): ChangePoint[] {
  while (points.length) {
    // The point with the largest p (the first of equals); if all pass, the smallest step.
    let weakest = points.reduce((w, p) => (p.pValue > w.pValue ? p : w))
    if (weakest.pValue < o.maxPValue) {
      weakest = points.reduce((w, p) => (magnitude(p) < magnitude(w) ? p : w))
      if (magnitude(weakest) > o.minMagnitude) return points
    }
    const at = points.indexOf(weakest)
    points.splice(at, 1)
    const all = intervals(points, 0, s.length)
    for (const i of [at, at + 1]) if (i < points.length) points[i] = tested(s, points[i], all)
  }
  return points
}

/** The weak level of the split step, as Otava derives it from the final one. */
const firstPassPValue = (p: number): number => (p < 0.05 ? p * 10 : p < 0.5 ? p * 2 : p)

/** Every change point of `series` (values in recording order), sorted by index. */
export function changePoints(
  series: readonly number[],
  options: ChangePointOptions = OTAVA_DEFAULTS
): ChangePoint[] {
  if (options.windowLength < 2) throw new RangeError('the window needs at least 2 points')
  const weak = split(series, options.windowLength, firstPassPValue(options.maxPValue))
  return merge(weak, series, options)
}
