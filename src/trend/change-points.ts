import { bestSplit, type Candidate } from './qhat'
import { forwardChange, RANK_TEST, T_TEST, type Levels, type Significance } from './significance'
import { spellEntries } from './spells'

/**
 * Change points of one series by Apache Otava's method (Fleming et al., "Hunter: Using Change
 * Point Detection to Hunt for Performance Regressions", ICPE 2023; `otava/analysis.py`
 * `compute_change_points`): E-divisive means run in sliding windows, each split kept while a
 * significance test calls its two sides different at a relaxed level (weak change points), then
 * the weak points merged bottom-up until every one left passes `maxPValue` and
 * `minMagnitude`. With Otava's Student's t-test (`T_TEST`) it is ported step for step, so
 * that it finds what Otava finds on the same series (`__tests__/change-points.test.ts` runs
 * both). With the rank-sum test (`RANK_TEST`) a few entries far off cannot hide a step: the
 * splits are searched on the window's ranks, placed where Q̂ on the values peaks near them (as
 * Otava places a split) and tested by ranks, and a short spell is set aside before the search
 * (`maxSpell`), so it makes no change point of its own.
 */

export interface ChangePointOptions {
  /** Points per sliding window of the split step (Otava: 50). */
  windowLength: number
  /** The final level of the test (Otava: 0.001); the split step uses 10× it. */
  maxPValue: number
  /** A point whose p passes must also move the level by more than this (relative; Otava: 0). */
  minMagnitude: number
  /** Otava's Student's t on the means (`T_TEST`), or the rank-sum test on the medians (`RANK_TEST`). */
  significance: Significance
  /**
   * Runs of at most this many entries far off the levels before and after them, the same way,
   * are spells, set aside before the search (`spells.ts`; 0: none, as Otava).
   */
  maxSpell: number
}

export const OTAVA_DEFAULTS: ChangePointOptions = {
  windowLength: 50,
  maxPValue: 0.001,
  minMagnitude: 0,
  significance: T_TEST,
  maxSpell: 0
}

/** Otava's frame and levels with the rank-sum test, spells of up to 5 entries set aside. */
export const ROBUST_DEFAULTS: ChangePointOptions = {
  ...OTAVA_DEFAULTS,
  significance: RANK_TEST,
  maxSpell: 5
}

/**
 * A step in the series: the first index of the new level, and the two levels around it (means
 * for the t-test, medians for the rank test).
 */
export interface ChangePoint extends Levels {
  index: number
  qhat: number
  pValue: number
  /** Entries of a spell just before `index`, set aside from both levels (0: none). */
  spell: number
}

/** Otava's magnitude: the larger of the forward and backward relative changes. */
function magnitude(p: ChangePoint): number {
  const back = p.levelAfter === 0 ? 0 : p.levelBefore / p.levelAfter - 1
  return Math.max(Math.abs(forwardChange(p)), Math.abs(back))
}

type Tested = Pick<ChangePoint, 'pValue' | 'levelBefore' | 'levelAfter'>

/** The two sides of a split compared by the detection's test. */
function compare(left: readonly number[], right: readonly number[], o: ChangePointOptions): Tested {
  const { p, levels } = o.significance.test.compare(left, right)
  return { pValue: p, levelBefore: levels[0], levelAfter: levels[1] }
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
 * The test of a candidate against its neighbours: inside a stretch it splits that stretch; on
 * a stretch's end (an existing point, recomputed) it compares the stretches on either side.
 */
function tested(
  s: readonly number[],
  c: Candidate,
  within: [number, number][],
  o: ChangePointOptions
): ChangePoint {
  for (let i = 0; i < within.length; i++) {
    const [start, stop] = within[i]
    if (stop === c.index && i + 1 < within.length) {
      const next = within[i + 1]
      return { ...c, spell: 0, ...compare(s.slice(start, stop), s.slice(next[0], next[1]), o) }
    }
    if (start < c.index && c.index < stop)
      return { ...c, spell: 0, ...compare(s.slice(start, c.index), s.slice(c.index, stop), o) }
  }
  throw new RangeError(`candidate ${c.index} lies in no stretch`)
}

/** The split with the largest Q̂ on `searched` over all `stretches`, and its stretch. */
function bestOfStretches(
  searched: readonly number[],
  stretches: [number, number][]
): { best: Candidate; stretch: [number, number] } | null {
  let out: { best: Candidate; stretch: [number, number] } | null = null
  for (const [a, b] of stretches) {
    const c = b - a > 1 ? bestSplit(searched, a, b) : null
    if (c && (out === null || c.qhat > out.best.qhat)) out = { best: c, stretch: [a, b] }
  }
  return out
}

/**
 * E-divisive on s[from:to]: the best split of any stretch, kept while significant. The split is
 * searched on what the test reads of the window (its values, or its ranks), placed on the values
 * and tested there.
 */
function divisive(
  s: readonly number[],
  from: number,
  to: number,
  maxPValue: number,
  o: ChangePointOptions
): ChangePoint[] {
  // The window is a series of its own, as Otava slices it before detecting.
  const w = s.slice(from, to)
  const searched = o.significance.searched(w)
  const points: ChangePoint[] = []
  for (;;) {
    const stretches = intervals(points, 0, w.length)
    const found = bestOfStretches(searched, stretches)
    if (!found) break
    const { best, stretch } = found
    const point = tested(w, o.significance.placed(w, best, stretch), stretches, o)
    if (!(point.pValue <= maxPValue)) break
    points.push(point)
    points.sort((x, y) => x.index - y.index)
  }
  return points.map(p => ({ ...p, index: p.index + from }))
}

/** Otava's split step: weak change points from overlapping windows, retested on the whole. */
function split(s: readonly number[], o: ChangePointOptions, maxPValue: number): ChangePoint[] {
  const step = Math.floor(o.windowLength / 2)
  const points: ChangePoint[] = []
  let start = 0
  while (start < s.length) {
    const end = Math.min(start + o.windowLength, s.length)
    const found = divisive(s, start, end, maxPValue, o)
    const last = found.length ? found[found.length - 1].index : 0
    start = Math.max(last, start + step)
    for (const p of found) if (!points.some(q => q.index === p.index)) points.push(p)
  }
  points.sort((x, y) => x.index - y.index)
  const all = intervals(points, 0, s.length)
  return points.map(p => tested(s, p, all, o))
}

/** Point i tested between its neighbours: the stretches on either side up to them. */
function retested(
  s: readonly number[],
  points: readonly ChangePoint[],
  i: number,
  o: ChangePointOptions
): ChangePoint {
  const p = points[i]
  const start = i > 0 ? points[i - 1].index : 0
  const stop = i + 1 < points.length ? points[i + 1].index : s.length
  return { ...p, ...compare(s.slice(start, p.index), s.slice(p.index, stop), o) }
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
    // The removed point's neighbours are retested, as the test's merge has it.
    for (const i of o.significance.retested(at))
      if (i >= 0 && i < points.length) points[i] = retested(s, points, i, o)
  }
  return points
}

/** The weak level of the split step, as Otava derives it from the final one. */
const firstPassPValue = (p: number): number => (p < 0.05 ? p * 10 : p < 0.5 ? p * 2 : p)

/**
 * The indexes of `series` the detection reads, oldest first: all of them, or with `maxSpell`
 * all but the spells' entries (`spells.ts`).
 */
export function keptEntries(series: readonly number[], options: ChangePointOptions): number[] {
  const indexes = series.map((_, i) => i)
  if (options.maxSpell <= 0) return indexes
  const spell = spellEntries(series, options.maxSpell)
  return indexes.filter(i => !spell[i])
}

/** Every change point of `series` (values in recording order), sorted by index. */
export function changePoints(
  series: readonly number[],
  options: ChangePointOptions = OTAVA_DEFAULTS
): ChangePoint[] {
  if (options.windowLength < 2) throw new RangeError('the window needs at least 2 points')
  const kept = keptEntries(series, options)
  const read = kept.map(i => series[i])
  const weak = split(read, options, firstPassPValue(options.maxPValue))
  // Back to the series' own indexes: the spell's entries just before a point are its `spell`.
  return merge(weak, read, options).map(p => ({
    ...p,
    index: kept[p.index],
    spell: kept[p.index] - kept[p.index - 1] - 1
  }))
}
