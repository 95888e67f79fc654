import { meanInterval, ratioInterval } from '../inference/fieller'
import { isCpuMetric, isMemMetric } from '../metrics/usage'
import { mean } from '../stats/sample'

/**
 * Hop shares that add up (docs/regression.md, "Which hop moved"). Each request's verdict metric is
 * the sum of its parts — the hops and the services' own times inside it — plus what no part
 * measures (the residual: the client's side, clamped clock skew, hops a generic service did not
 * report). Means add where medians do not, so per run we take the requests whose verdict metric
 * lies in a central band of its own distribution (a stall or a warm request does not reach it),
 * and average the verdict metric and every part over those same requests: the parts' means and
 * the residual's sum to the band's mean of the verdict metric. Per pair the head − base
 * difference, across pairs the mean with a Student t interval. Sums of means over pairs are the
 * means of the sums, so the contributions add up to the explained change exactly.
 */

/** Which requests of a run count: those between these quantiles of the verdict metric. */
export const CENTRAL_BAND: readonly [number, number] = [0.25, 0.75]

/** One contribution to the explained change: head − base, seconds, over the pairs. */
export interface Contribution {
  metric: string
  /** Mean over pairs of head − base, seconds. */
  delta: number
  /** Its interval at the case's level. */
  ci: [number, number]
  /** Its part of the explained change, with an interval; null when that change's interval holds zero. */
  share: number | null
  shareCi: [number, number] | null
  /** Whether its interval excludes zero: the part moved. */
  moved: boolean
}

export interface HopShares {
  /** The verdict metric whose change is explained. */
  metric: string
  band: readonly [number, number]
  /** The explained change: head − base of the band's mean of the verdict metric, over the pairs. */
  total: { delta: number; ci: [number, number] }
  /**
   * Every part inside the verdict metric, in the case's display order. Their intervals hold
   * together (Bonferroni across the parts), so a part read as moved keeps the case's level.
   */
  parts: Contribution[]
  /** The verdict metric's time no part measures. */
  residual: Contribution
}

/** One run's per-request samples, index j of every array being request j. */
export type RunSamples = Readonly<Record<string, readonly number[]>>

/** The parts a request's time is made of: hops (`a->b:send`, `hop:<name>`) and own times (`x:proc`). */
export const isPart = (metric: string): boolean =>
  metric.includes('->') || metric.endsWith(':proc') || metric.startsWith('hop:')

/**
 * The parts inside a verdict metric: `path` starts at the frontend's receive, so the client's
 * transfer (`c->…`) lies outside it; `latency` and `roundtrip` hold every part; `cpu:` and `mem:` none.
 */
export const partsOf = (gate: string, metrics: readonly string[]): string[] =>
  // A service's CPU or memory is no sum of a request's hops.
  isCpuMetric(gate) || isMemMetric(gate)
    ? []
    : metrics.filter(m => m !== gate && isPart(m) && (gate !== 'path' || !m.startsWith('c->')))

/** Indices of the requests whose `values` lie in the band, by rank (ties in request order). */
export function centralRequests(
  values: readonly number[],
  band: readonly [number, number]
): number[] {
  const order = values.map((v, j) => ({ v, j })).sort((a, b) => a.v - b.v || a.j - b.j)
  const from = Math.floor(band[0] * values.length)
  const to = Math.max(from + 1, Math.ceil(band[1] * values.length))
  return order.slice(from, to).map(o => o.j)
}

/** One run's band means: the verdict metric's, each part's, and the residual between them. */
export function runDecomposition(
  gate: string,
  parts: readonly string[],
  run: RunSamples,
  band: readonly [number, number] = CENTRAL_BAND
): { total: number; parts: number[]; residual: number } {
  const own = run[gate]
  const central = centralRequests(own, band)
  const bandMean = (xs: readonly number[]) => mean(central.map(j => xs[j]))
  const total = bandMean(own)
  const means = parts.map(p => bandMean(run[p]))
  return { total, parts: means, residual: total - means.reduce((a, b) => a + b, 0) }
}

function contribution(
  metric: string,
  deltas: readonly number[],
  totals: readonly number[],
  alpha: number
): Contribution {
  const own = meanInterval(deltas, alpha)
  const shared = ratioInterval(deltas, totals, alpha)
  return {
    metric,
    ...own,
    share: shared && shared.share,
    shareCi: shared && shared.ci,
    moved: own.ci[0] > 0 || own.ci[1] < 0
  }
}

/** Whether every part has one value per request of the verdict metric in every run. */
const aligned = (gate: string, part: string, runs: readonly RunSamples[]): boolean =>
  runs.every(r => r[part]?.length === r[gate].length)

/**
 * The verdict metric's change over n pairs of runs, split into its parts and the residual, with
 * intervals at level `alpha` (the case's α′; the parts' at α′ / their number). Parts whose samples are not one per request in
 * every run (a generic service that did not always report a hop) stay in the residual. Null with
 * fewer than 2 pairs, a run without the verdict metric's samples, or no part to split it into.
 */
export function hopShares(
  gate: string,
  metrics: readonly string[],
  base: readonly RunSamples[],
  head: readonly RunSamples[],
  alpha: number,
  band: readonly [number, number] = CENTRAL_BAND
): HopShares | null {
  const runs = [...base, ...head]
  if (base.length < 2 || base.length !== head.length) return null
  if (!runs.every(r => (r[gate]?.length ?? 0) > 0)) return null
  const parts = partsOf(gate, metrics).filter(p => aligned(gate, p, runs))
  if (!parts.length) return null
  const a = base.map(r => runDecomposition(gate, parts, r, band))
  const b = head.map(r => runDecomposition(gate, parts, r, band))
  const totals = b.map((x, i) => x.total - a[i].total)
  const each = alpha / Math.max(1, parts.length)
  return {
    metric: gate,
    band,
    total: meanInterval(totals, alpha),
    parts: parts.map((p, k) =>
      contribution(
        p,
        b.map((x, i) => x.parts[k] - a[i].parts[k]),
        totals,
        each
      )
    ),
    residual: contribution(
      'residual',
      b.map((x, i) => x.residual - a[i].residual),
      totals,
      alpha
    )
  }
}
