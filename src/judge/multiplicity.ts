import { holmAdjusted } from '../inference/holm'

/**
 * Diagnostics that keep their error rate. Only a case's verdict metric gives an answer; every other
 * metric of the case (its hops, services' own times, frontend gaps) is a diagnostic: evidence of
 * where a change lies. A case has some nine of them, so nine unadjusted tests at 5 % would flag at
 * least one in about a third of the pull requests that change nothing. Their p-values are adjusted
 * by Holm's step-down method across the case's diagnostics, which keeps the chance of flagging any
 * of them, when none moved, at most α whatever their dependence. Benjamini–Hochberg would flag
 * more but bounds only the expected share of false flags, and only under positive dependence,
 * while hops of one request can pull against each other (one queue's wait is another's idle).
 */

/**
 * The level a paired case's diagnostics are read at, at any one look: its share of α spread over
 * its `looks` planned looks (Bonferroni), and no higher than the case's own intervals' `test`
 * level. The verdict metric chooses the look a case stops at, and diagnostics that move with it
 * are then more often extreme at that look than at a look fixed in advance; Holm at level ℓ holds
 * each look's family at ℓ, so at `caseAlpha` / looks every look together, whichever one the run
 * stopped at, holds the case's diagnostics at `caseAlpha`.
 */
export const diagnosticLevel = (test: number, caseAlpha: number, looks: number): number =>
  Math.min(test, caseAlpha / looks)

/** Which way a diagnostic moved when its adjusted p is below the level; null when it did not show. */
export type Evidence = 'up' | 'down' | null

export interface Diagnosed {
  /** Holm-adjusted across the case's diagnostics; null for the verdict metric and untested rows. */
  adjustedP: number | null
  evidence: Evidence
}

/**
 * A case's metrics with each diagnostic's adjusted p and evidence at `level` (the level the case's
 * intervals are read at). The verdict metric (`gating`) is its own answer and is not adjusted.
 */
export function diagnose<T extends { gating: boolean; p: number | null; change: number }>(
  metrics: readonly T[],
  level: number
): (T & Diagnosed)[] {
  const adjusted = holmAdjusted(metrics.map(m => (m.gating ? null : m.p)))
  return metrics.map((m, i) => {
    const p = adjusted[i]
    const shown = p !== null && p < level && m.change !== 0
    return { ...m, adjustedP: p, evidence: shown ? (m.change > 0 ? 'up' : 'down') : null }
  })
}
