import normal from '@stdlib/random-base-normal'
import { studentTQuantile } from '../stats/student-t'

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
 * The t statistic of the mean log ratio depends neither on the noise's scale nor, centred on the
 * true change, on the change: under normal log ratios one simulation of N(0, 1) pairs gives α′
 * for every run. It is drawn from a fixed seed, so a run's level is reproducible.
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

/** |t| of the mean at every look, for runs of N(0, 1) pairs: row-major, one row per run. */
function simulatedT(looks: readonly number[], simulations: number): Float64Array {
  const draw = normal.factory({ seed: SEED })
  const last = looks[looks.length - 1]
  const out = new Float64Array(simulations * looks.length)
  for (let s = 0; s < simulations; s++) {
    let sum = 0
    let sumSq = 0
    let look = 0
    for (let n = 1; n <= last; n++) {
      const x = draw(0, 1)
      sum += x
      sumSq += x * x
      if (n !== looks[look]) continue
      const mean = sum / n
      const sd = Math.sqrt(Math.max(sumSq - n * mean * mean, 0) / (n - 1))
      out[s * looks.length + look++] = Math.abs(mean / (sd / Math.sqrt(n)))
    }
  }
  return out
}

/** Share of the simulated runs in which some look's |t| passes its quantile at level α′. */
function crossed(t: Float64Array, looks: readonly number[], level: number): number {
  const bounds = looks.map(n => studentTQuantile(1 - level / 2, n - 1))
  const k = looks.length
  let hits = 0
  for (let s = 0; s < t.length / k; s++) {
    for (let j = 0; j < k; j++) {
      if (t[s * k + j] > bounds[j]) {
        hits++
        break
      }
    }
  }
  return hits / (t.length / k)
}

const levels = new Map<string, number>()

/**
 * The nominal two-sided level α′ of each look's interval, so that the intervals of all `looks`
 * cover the true change together with probability 1 − `alpha`. One look: α′ = α. Found by
 * bisection between Bonferroni's α / looks (always enough) and α.
 */
export function sequentialLevel(looks: readonly number[], alpha: number): number {
  if (looks.length === 1) return alpha
  const key = `${looks.join(',')}@${alpha}`
  const known = levels.get(key)
  if (known !== undefined) return known
  const t = simulatedT(looks, SIMULATIONS)
  let [low, high] = [alpha / looks.length, alpha]
  for (let i = 0; i < 30; i++) {
    const mid = (low + high) / 2
    if (crossed(t, looks, mid) > alpha) high = mid
    else low = mid
  }
  levels.set(key, low)
  return low
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
}
