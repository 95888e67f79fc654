import type { Diagnosed } from '../judge/multiplicity'
import { fmtChange } from '../text/percent'
import { fmtP } from '../text/p-value'

/**
 * The words of a diagnostic (every metric of a case but its verdict metric): evidence of where a
 * change lies, never a verdict, so it carries no verdict colour (src/judge/multiplicity.ts).
 */

const ARROW = { up: '↑', down: '↓' } as const

/** A diagnostic's cell: ↑/↓ with its change when its adjusted p is below the level, else the p. */
export function evidenceCell(m: Diagnosed & { change: number }): string {
  if (m.adjustedP === null) return 'no test'
  if (m.evidence === null) return `adjusted p ${fmtP(m.adjustedP)}`
  return `${ARROW[m.evidence]} ${fmtChange(m.change)}, adjusted p ${fmtP(m.adjustedP)}`
}

/**
 * The line under a table of diagnostics: how their p-values were corrected, and what ↑/↓ means.
 * `level` names the level the chance is held at in words, e.g. `α = 0.05`; `readAt`, the level an
 * adjusted p is compared with when it is another.
 */
export const diagnosticsLegend = (level: string, readAt = 'that level'): string =>
  'Only the verdict metric gives an answer. Every other row is a diagnostic: its p-value is ' +
  'Holm-adjusted across its case’s diagnostics, which keeps the chance that a pull request ' +
  `changing nothing shows any ↑ or ↓ in a case within ${level}; ↑ or ↓ marks an adjusted p ` +
  `below ${readAt}: evidence of where a change lies, not a verdict.`
