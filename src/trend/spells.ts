import { median } from '../stats/sample'

/**
 * Spells: a few entries far off the level before them and the level after them, in the same
 * direction (a runner's bad hour, a broken build that was reverted). They belong to no level,
 * so the rank-test detection sets them aside before it searches: a spell then neither makes
 * two change points nor moves a step's place, size or interval. A run far off one side only is
 * a new level, not a spell; the newest entries have no level after them yet, so a spell is
 * known as one only once entries are back.
 */

/** How far off an entry must lie to be a spell's: robust standard deviations of a level. */
const FAR_OFF = 5

/** The median and robust standard deviation (1.4826 × the median absolute deviation). */
function level(values: readonly number[]): { centre: number; sd: number } {
  const centre = median(values)
  return { centre, sd: 1.4826 * median(values.map(v => Math.abs(v - centre))) }
}

/** +1 when `v` lies far above the level of `values`, −1 far below, 0 otherwise. */
function side(v: number, values: readonly number[]): number {
  const { centre, sd } = level(values)
  const d = v - centre
  return Math.abs(d) > FAR_OFF * sd ? Math.sign(d) : 0
}

/**
 * Whether each entry of `values` is in a spell of at most `maxSpell` entries: far off, the same
 * way, the level of the `2 × maxSpell + 1` entries before it and of as many after it (a spell
 * is less than half of either, so it cannot move their medians), with at least 2 on each side.
 */
export function spellEntries(values: readonly number[], maxSpell: number): boolean[] {
  const reach = 2 * maxSpell + 1
  const far = values.map((v, i) => {
    const before = values.slice(Math.max(0, i - reach), i)
    const after = values.slice(i + 1, i + 1 + reach)
    if (before.length < 2 || after.length < 2) return 0
    const s = side(v, before)
    return s !== 0 && side(v, after) === s ? s : 0
  })
  // Runs of far-off entries of one direction; a run longer than maxSpell is a level.
  const out = values.map(() => false)
  for (let i = 0; i < far.length;) {
    let j = i
    while (j < far.length && far[i] !== 0 && far[j] === far[i]) j++
    if (j > i && j - i <= maxSpell) for (let k = i; k < j; k++) out[k] = true
    i = Math.max(j, i + 1)
  }
  return out
}
