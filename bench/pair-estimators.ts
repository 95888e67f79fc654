/**
 * Ways to reduce one pair's requests to one log ratio, head over base, for `bench:pair-spread`:
 * each side's location on the log scale (the median the verdict uses, the mean, trimmed means,
 * Hodges–Lehmann), or the requests paired one by one (request j of each side, sent half a period
 * apart) and their log differences reduced.
 */
import normal from '@stdlib/random-base-normal'
import { mean, median, std } from '../src/stats/sample'
import { trimmedMean } from '../src/stats/trimmed'
import { outliers } from '../src/inference/outliers'
import { OUTLIER_RULE } from '../src/judge/set-aside'

export const PAIR_ESTIMATORS = [
  'median',
  'mean-log',
  'trim10-log',
  'trim20-log',
  'hl-log',
  'trim20',
  'request-median',
  'request-trim20',
  'request-mean'
] as const
export type PairEstimator = (typeof PAIR_ESTIMATORS)[number]

/** The one-sample Hodges–Lehmann estimate: the median of all Walsh averages. */
function hodgesLehmann(xs: readonly number[]): number {
  const w: number[] = []
  for (let i = 0; i < xs.length; i++)
    for (let j = i; j < xs.length; j++) w.push((xs[i] + xs[j]) / 2)
  return median(w)
}

type Location = (logs: number[]) => number
const LOCATIONS: Record<string, Location> = {
  median: median,
  'mean-log': mean,
  'trim10-log': xs => trimmedMean(xs, 0.1),
  'trim20-log': xs => trimmedMean(xs, 0.2),
  'hl-log': hodgesLehmann,
  // On the seconds themselves, the log taken after: a run of many clamped zeros stays finite.
  trim20: xs => Math.log(trimmedMean(xs.map(Math.exp), 0.2)),
  'request-median': median,
  'request-trim20': xs => trimmedMean(xs, 0.2),
  'request-mean': mean
}

const isRequestPaired = (e: PairEstimator): boolean => e.startsWith('request-')

/** The pair's log ratio by `e`; `pick` resamples request indices (a bootstrap). */
function pairValue(
  base: number[],
  head: number[],
  e: PairEstimator,
  pick: (n: number) => number[] = n => Array.from({ length: n }, (_, i) => i)
): number {
  const loc = LOCATIONS[e]
  if (isRequestPaired(e)) {
    const n = Math.min(base.length, head.length)
    return loc(pick(n).map(j => Math.log(head[j]) - Math.log(base[j])))
  }
  const side = (xs: number[]) => loc(pick(xs.length).map(j => Math.log(xs[j])))
  return side(head) - side(base)
}

/** A seeded uniform generator on [0, 1): a normal generator's own, so the bootstrap repeats. */
const uniform = (seed: number): (() => number) => normal.factory({ seed }).PRNG

const BOOTSTRAP = 200

export interface Spread {
  diffs: number[]
  /** s.d. of the pairs' log ratios, and of those Rosner's rule keeps. */
  sd: number
  keptSd: number
  /** The within-pair sampling error of the estimate (bootstrap of the requests), averaged as a variance. */
  ownSe: number | null
}

/** The pairs' log ratios by `e`, their spread, and how much of it the requests' own sampling explains. */
export function interimSpread(
  pairs: { base: number[]; head: number[] }[],
  e: PairEstimator
): Spread {
  const diffs = pairs.map(p => pairValue(p.base, p.head, e))
  const out = new Set(outliers(diffs, OUTLIER_RULE))
  const rnd = uniform(54)
  const pick = (n: number) => Array.from({ length: n }, () => Math.floor(rnd() * n))
  let v = 0
  for (const p of pairs) {
    const boots = Array.from({ length: BOOTSTRAP }, () => pairValue(p.base, p.head, e, pick))
    v += std(boots) ** 2
  }
  return {
    diffs,
    sd: std(diffs),
    keptSd: std(diffs.filter((_, i) => !out.has(i))),
    ownSe: Math.sqrt(v / pairs.length)
  }
}
