import type { StopReason } from './sequential'

/**
 * The paired budget's rules: the share of the time left that each undecided case may spend on
 * its later looks, and when a case stops adding pairs (pipeline/suite/budget.ts spends it).
 */

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

/** What a look of a case's verdict metric said; `unjudged`: a run had no samples of it. */
export type LookAnswer = 'decisive' | 'inconclusive' | 'unjudged'

/**
 * Whether more pairs can follow look `k` of the planned `looks`: not after the last, whose answer
 * is the report's (it stops the case at `max-pairs` unjudged).
 */
export const moreCanFollow = (k: number, looks: readonly number[]): boolean => k < looks.length - 1

/**
 * Why a case stops after a look that more pairs could follow, from what it said; null while it
 * may add pairs. An unjudged look cannot decide, and no later one could either.
 */
export const stopOn = (said: LookAnswer): StopReason | null =>
  said === 'decisive' ? 'decisive' : said === 'unjudged' ? 'max-pairs' : null

/** The next look's pairs as the stopping rule weighs them. */
export interface NextLook {
  /** Seconds they would take, at the case's pace so far. */
  sec: number
  /** Seconds the case has left: of its share, and of its timeout, whichever is less. */
  leftSec: number
  fits: boolean
}

/**
 * Whether a look whose pairs would take `sec` (at the case's pace so far) fits within what is left
 * of the case's `shareSec` and of its `timeoutSec`, of which it has spent `spentSec`.
 */
export function nextLook(
  sec: number,
  spentSec: number,
  left: { shareSec: number; timeoutSec: number }
): NextLook {
  const leftSec = Math.min(left.shareSec, left.timeoutSec - spentSec)
  return { sec, leftSec, fits: !(sec > leftSec) }
}
