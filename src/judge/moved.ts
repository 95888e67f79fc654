import { partsOf } from './hop-shares'
import type { Evidence } from './multiplicity'

/** What naming the hops that moved needs of a compared metric, in either mode. */
export interface Moved {
  metric: string
  /** Head (PR) − base, seconds. */
  delta: number
  gating: boolean
  /** Its multiplicity-adjusted evidence (src/judge/multiplicity.ts); null for the verdict metric. */
  evidence: Evidence
}

/**
 * The parts inside a case's verdict metric whose adjusted evidence shows a move, either way, the
 * largest first: where a change lies when the verdict metric's change cannot be split into its
 * hops (history mode, whose runs are not paired).
 */
export function movedParts<T extends Moved>(metrics: readonly T[]): T[] {
  const gate = metrics.find(m => m.gating)
  if (!gate) return []
  const inside = new Set(
    partsOf(
      gate.metric,
      metrics.map(m => m.metric)
    )
  )
  return metrics
    .filter(m => inside.has(m.metric) && m.evidence !== null)
    .sort((a, b) => Math.abs(b.delta) - Math.abs(a.delta))
}
