/**
 * How identical copies with these pairs' log ratios fare under the paired rule at the default
 * looks: runs of pairs drawn with replacement from the observed ratios (uncentred: what the pairs
 * showed is the truth the draws keep), judged look by look as `pairedCase` judges them.
 */
import normal from '@stdlib/random-base-normal'
import { pairedInterval, pairedT } from '../src/inference/paired-t'
import { lookSchedule, sequentialLevels } from '../src/judge/sequential'
import { judge } from '../src/judge/verdict'
import { OUTLIER_RULE } from '../src/judge/set-aside'
import { median } from '../src/stats/sample'

const RUNS = 2000

export interface Decision {
  /** Share of runs answered "no change" by the look of this many pairs (9, 30). */
  by: Record<number, number>
  /** Share called a change at any look. */
  changed: number
  /** The median of the pairs at which the runs stopped (the last look when never decided). */
  medianPairs: number
}

export function decideIdentical(
  diffs: readonly number[],
  o: { threshold: number; cases: number; first?: number; max?: number }
): Decision {
  const looks = lookSchedule(o.first ?? 6, o.max ?? 30)
  const levels = sequentialLevels(looks, 0.05, o.cases)
  const rnd = normal.factory({ seed: 12345 }).PRNG
  const stops: number[] = []
  const noChangeAt: number[] = []
  let changed = 0
  const last = looks[looks.length - 1]
  for (let s = 0; s < RUNS; s++) {
    const draw = Array.from({ length: last }, () => diffs[Math.floor(rnd() * diffs.length)])
    let stop = last
    for (const n of looks) {
      const r = pairedT(draw.slice(0, n), OUTLIER_RULE)
      const ci = pairedInterval(r, levels.test).map(x => Math.exp(x) - 1) as [number, number]
      const eq = pairedInterval(r, levels.equivalence).map(x => Math.exp(x) - 1) as [number, number]
      const v = judge(Math.exp(r.mean) - 1, ci, o.threshold, eq)
      if (v === 'inconclusive') continue
      stop = n
      if (v === 'no-change') noChangeAt.push(n)
      else changed++
      break
    }
    stops.push(stop)
  }
  const by = (n: number) => noChangeAt.filter(x => x <= n).length / RUNS
  return { by: { 9: by(9), 30: by(30) }, changed: changed / RUNS, medianPairs: median(stops) }
}
