import type { Verdict } from './verdict'

/**
 * The search of a bisect over a range of commits, `commits[0]` the good end and the last the bad
 * one, as a pure function of the comparisons made so far: each answer of a paired run (head
 * against base) moves the known-good or the known-bad end, as Chromium's Pinpoint narrows a
 * change down by repeated A/B runs.
 *
 * 1. The ends first: the bad end must be a regression against the good one, or there is nothing
 *    to look for.
 * 2. Then the middle of the open range against the nearest known-good commit: a regression puts
 *    the culprit at or before the middle, no change (or an improvement) after it.
 * 3. A middle that cannot tell (inconclusive, after the adaptive pairs) is compared from the other
 *    side, the known-bad commit against it: a regression there clears the middle, no change
 *    convicts it. When that cannot tell either, the search stops with the range it has: a
 *    guessed culprit would be worse than an honest range.
 */

/** A paired comparison of two commits of the range, by index: the head judged against the base. */
export interface Probe {
  base: number
  head: number
}

/** What a comparison answered: the verdict of its cases (the worst), with the figures. */
export interface ProbeResult extends Probe {
  answer: Verdict
  /** The verdict metric's change, head ÷ base − 1, and its interval, of the case that decided. */
  change: number
  ci: [number, number]
  metric: string
  pairs: number
  seconds: number
}

export type BisectEnd =
  /** The first bad commit: its parent in the range is good. */
  | { kind: 'culprit'; index: number }
  /** The bad end is not a regression against the good end (its answer says what it is). */
  | { kind: 'no-step'; answer: Verdict }
  /** A middle commit could not be told from either end: the culprit is in (lo, hi]. */
  | { kind: 'range'; lo: number; hi: number }

export type BisectStep = { probe: Probe } | { end: BisectEnd }

/** Where the search stands after `results`, over a range of `n` commits (n ≥ 2). */
export function nextStep(n: number, results: readonly ProbeResult[]): BisectStep {
  if (n < 2) throw new RangeError(`a bisect needs a good and a bad commit (got ${n} commits)`)
  if (!results.length) return { probe: { base: 0, head: n - 1 } }
  if (results[0].answer !== 'regression')
    return { end: { kind: 'no-step', answer: results[0].answer } }
  let lo = 0
  let hi = n - 1
  let backward = false
  for (const r of results.slice(1)) {
    const mid = backward ? r.base : r.head
    if (!backward) {
      if (r.answer === 'regression') hi = mid
      else if (r.answer === 'inconclusive') backward = true
      else lo = mid
    } else {
      backward = false
      if (r.answer === 'regression') lo = mid
      else if (r.answer === 'inconclusive') return { end: { kind: 'range', lo, hi } }
      else hi = mid
    }
  }
  if (hi - lo <= 1) return { end: { kind: 'culprit', index: hi } }
  if (backward) {
    const last = results[results.length - 1]
    return { probe: { base: last.head, head: hi } }
  }
  return { probe: { base: lo, head: Math.floor((lo + hi) / 2) } }
}

/** Comparisons a clean search takes over `n` commits: the ends, then one per halving. */
export const plannedProbes = (n: number): number => 1 + Math.ceil(Math.log2(Math.max(n - 1, 1)))
