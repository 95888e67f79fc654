import normal from '@stdlib/random-base-normal'
import type { OutlierRule } from '../inference/outliers'
import { pairedCritical, pairedT } from '../inference/paired-t'
import { OUTLIER_RULE } from './set-aside'

/**
 * Adaptive length for paired runs: a group-sequential design with repeated confidence intervals
 * (Jennison & Turnbull, "Group Sequential Methods", ch. 9). The run looks at its pairs after a
 * planned number of them, and adds pairs while the answer is inconclusive. Each look's interval is
 * taken at one nominal level α′, chosen so that the intervals of *all* planned looks hold together
 * with probability 1 − α. Every answer is read from an interval (docs/regression.md), so any rule
 * for when to stop — decisive, out of pairs, out of time — keeps the stated error rates.
 *
 * α′ is the nominal level at which a run without a change crosses some look's t quantile with
 * probability α (a Pocock boundary on the p-value scale, so early looks keep their t quantiles).
 * Each look first sets aside the pairs its outlier rule names (src/judge/set-aside.ts), then
 * takes Student's t over the rest: the rule moves with the data's location and scale, so the
 * statistic, centred on the true change, depends neither on the noise's scale nor on the change,
 * and under normal log ratios one simulation of N(0, 1) pairs through the same rule gives α′ for
 * every run. It is drawn from a fixed seed, so a run's level is reproducible.
 */

/** Planned looks: the first after `first` pairs, then about half as many again each time, up to `max`. */
export function lookSchedule(first: number, max: number): number[] {
  if (!Number.isInteger(first) || first < 2) {
    throw new RangeError(`the first look needs at least 2 pairs (got ${first})`)
  }
  if (!Number.isInteger(max) || max < first) {
    throw new RangeError(`max-pairs (${max}) must be a whole number of at least ${first} pairs`)
  }
  const looks = [first]
  while (looks[looks.length - 1] < max) {
    looks.push(Math.min(max, Math.ceil(looks[looks.length - 1] * 1.5)))
  }
  return looks
}

const SIMULATIONS = 40_000
const SEED = 20261125

/** Per simulated run and look (row-major): t over the kept pairs, and how many were kept. */
interface Simulated {
  t: Float64Array
  kept: Uint16Array
}

function simulate(looks: readonly number[], rule: OutlierRule | null): Simulated {
  const draw = normal.factory({ seed: SEED })
  const last = looks[looks.length - 1]
  const t = new Float64Array(SIMULATIONS * looks.length)
  const kept = new Uint16Array(SIMULATIONS * looks.length)
  const pairs = new Array<number>(last)
  for (let s = 0; s < SIMULATIONS; s++) {
    for (let n = 0; n < last; n++) pairs[n] = draw(0, 1)
    looks.forEach((n, j) => {
      const r = pairedT(pairs.slice(0, n), rule)
      t[s * looks.length + j] = r.t
      kept[s * looks.length + j] = r.kept
    })
  }
  return { t, kept }
}

/**
 * Share of the simulated runs in which some look's t passes its two-sided quantile at level α′:
 * either way (`two`), or upwards only (`one`).
 */
function crossed(sim: Simulated, looks: readonly number[], level: number, sides: Sides): number {
  const bounds = new Map<number, number>()
  const bound = (kept: number): number => {
    if (!bounds.has(kept)) bounds.set(kept, pairedCritical(level, kept))
    return bounds.get(kept)!
  }
  const k = looks.length
  let hits = 0
  for (let s = 0; s < SIMULATIONS; s++) {
    for (let j = 0; j < k; j++) {
      const i = s * k + j
      if ((sides === 'two' ? Math.abs(sim.t[i]) : sim.t[i]) > bound(sim.kept[i])) {
        hits++
        break
      }
    }
  }
  return hits / SIMULATIONS
}

/** Whether the intervals must hold at both ends together, or at each end on its own. */
type Sides = 'two' | 'one'

const simulations = new Map<string, Simulated>()
const levels = new Map<string, number>()

/**
 * The nominal two-sided level α′ of each look's interval, so that the intervals of all `looks`
 * cover the true change together with probability 1 − `alpha` when every look sets aside the
 * pairs `rule` names (null: none, Student's t on all pairs); with `sides` = `one`, so that each
 * end alone holds over all looks with probability 1 − `alpha`. One look where the rule cannot set
 * a pair aside: α′ = α (two-sided) or 2α (one end). Found by bisection.
 */
export function sequentialLevel(
  looks: readonly number[],
  alpha: number,
  rule: OutlierRule | null = OUTLIER_RULE,
  sides: Sides = 'two'
): number {
  const top = sides === 'two' ? alpha : 2 * alpha
  // A rule that can set no pair aside at any look (too few pairs) is no rule.
  const active = rule && looks.some(n => Math.floor(rule.share * n) > 0) ? rule : null
  if (looks.length === 1 && active === null) return top
  const key = `${looks.join(',')}|${active ? `${active.alpha}/${active.share}` : 'none'}`
  const known = levels.get(`${key}@${alpha}/${sides}`)
  if (known !== undefined) return known
  if (!simulations.has(key)) simulations.set(key, simulate(looks, active))
  const sim = simulations.get(key)!
  let [low, high] = [top / (4 * looks.length), top]
  for (let i = 0; i < 30; i++) {
    const mid = (low + high) / 2
    if (crossed(sim, looks, mid, sides) > alpha) high = mid
    else low = mid
  }
  levels.set(`${key}@${alpha}/${sides}`, low)
  return low
}

/**
 * The two levels of a case's intervals: `test` holds all looks together at 1 − α, for calling a
 * change; `equivalence` holds each end over all looks at 1 − α, for "no change": both ends inside
 * ± the threshold is then the two one-sided tests at α each (TOST), as a 90 % interval is for one
 * look, and a change at the threshold is called "no change" at most α of the time.
 */
export interface Levels {
  test: number
  equivalence: number
}

/**
 * The levels of one of a run's `cases` cases. A pull request is a regression when any case is, so
 * each case's change-calling intervals take an equal share α / cases of the level at every look
 * (Bonferroni): all cases' intervals then hold together at 1 − α, and a pull request that changed
 * nothing is called a regression (or an improvement) at most α of the time, whichever looks each
 * case stopped at. "No change" for the pull request needs every case's, so each case's
 * equivalence interval keeps the whole α (an intersection–union test: the pull request is wrongly
 * "no change" only if a case that changed is, at most α).
 */
export const sequentialLevels = (
  looks: readonly number[],
  alpha: number,
  cases = 1,
  rule: OutlierRule | null = OUTLIER_RULE
): Levels => {
  if (!Number.isInteger(cases) || cases < 1) {
    throw new RangeError(`a run's level is shared by at least 1 case (got ${cases})`)
  }
  return {
    test: sequentialLevel(looks, alpha / cases, rule),
    equivalence: sequentialLevel(looks, alpha, rule, 'one')
  }
}

/** Why a paired case stopped adding pairs. */
export type StopReason = 'decisive' | 'max-pairs' | 'budget'

/** How one case's pairs were measured. */
export interface Sequence {
  /** The planned looks, in pairs (one look: a run of fixed length). */
  looks: number[]
  /** Pairs measured. */
  pairs: number
  /** `decisive`: an answer before the last look; `max-pairs`: the last look; `budget`: time. */
  stop: StopReason
  /** Wall time of the case's pairs, seconds; null when not measured here. */
  seconds: number | null
  /** Where `seconds` went; absent where not measured (a comparison of results read back). */
  split?: TimeSplit
}

/** Where a paired case's wall time went, seconds. */
export interface TimeSplit {
  /** Starting both sides, until both are ready. */
  startSec: number
  /** The clients' start and the warm-up or lead-in requests of each stream, on schedule. */
  warmupSec: number
  /** The rest of each stream or block (a burst's whole), and judging the looks. */
  measureSec: number
  /** Stopping the sides. */
  teardownSec: number
}
