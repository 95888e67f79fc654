import { pairedWarmupRequests, streamLeadIn } from '../../client/plan'
import type { Load } from '../../client/load'
import { isPaced, type PairedProfile } from '../../profile/traits'
import { caseLoad, CLIENT_START_SECONDS, type PairedSettings } from './paired-case'

/**
 * One time budget for a whole paired run (`paired-budget-minutes`), shared by its cases.
 *
 * The rule: when a case starts, it may spend on pairs the time left of the budget times the cost
 * of its pair over the summed pair costs of itself and the cases after it. While every case is
 * undecided, each can then reach the same number of pairs, the unit the planned looks count in
 * (the intervals narrow with pairs, not with seconds); a case decided early leaves its unspent
 * share to the cases after it, because each share is taken from what is left when that case
 * starts. A case's first look always runs; the share decides whether its later looks fit.
 */

/** A side's start as the local engine takes it (two starts of about a second a pair). */
const START_SECONDS = 1

/**
 * What one pair of a case costs on schedule, seconds, from its profile and settings: the measured
 * run, the warm-up or lead-in of its streams, the clients' start and, per pair, the sides'
 * starts. Null for an unpaced profile (a burst), whose length no schedule says. A weight, not a promise: the budget's
 * stopping rule measures the case's own pace.
 */
export function pairSeconds(
  profile: PairedProfile,
  suiteLoad: Load,
  settings: Pick<PairedSettings, 'redeploy' | 'interleave' | 'sizeRuns'>
): number | null {
  if (!isPaced(profile)) return null
  const { rate } = profile
  const load = caseLoad(profile, suiteLoad, settings.sizeRuns)
  const lead = settings.redeploy ? pairedWarmupRequests(rate, load) : streamLeadIn(rate, load)
  const stream = (load.requests + lead) / rate + CLIENT_START_SECONDS
  const starts = settings.redeploy ? 2 * START_SECONDS : 0
  return (settings.interleave === 'requests' ? stream : 2 * stream) + starts
}

/**
 * The seconds the next case may spend on pairs: `leftSec` of the budget shared among it and the
 * cases after it in proportion to their pair `costs` (its own first); equal shares when a cost is
 * unknown.
 */
export function caseShare(leftSec: number, costs: readonly (number | null)[]): number {
  if (costs.length === 0) throw new RangeError('a share needs at least the case it is for')
  const left = Math.max(0, leftSec)
  const known = costs.filter((c): c is number => c !== null && c > 0)
  if (known.length < costs.length) return left / costs.length
  return (left * known[0]) / known.reduce((a, b) => a + b, 0)
}
