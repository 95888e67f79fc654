import type { Verdict } from './verdict'

/** What the explanation needs of a compared metric, in either mode. */
export interface Moved {
  metric: string
  /** Head (PR) − base, seconds. */
  delta: number
  verdict: Verdict
  gating: boolean
}

export interface Explanation {
  /** The case's verdict metric. */
  gate: Moved
  /** The hops and service times that moved decisively, the largest first (at most three). */
  hops: Moved[]
  /** Their added time over the verdict metric's; null when the verdict metric did not move. */
  share: number | null
}

/** The parts a request's time is made of: hops (`a->b:send`) and services' own times (`x:proc`). */
const isPart = (metric: string): boolean => metric.includes('->') || metric.endsWith(':proc')

/**
 * Whether a part lies inside the verdict metric: `path` starts at the frontend's receive, so the
 * client's transfer (`c->…`) is outside it and cannot explain it; `latency` holds every part.
 */
const inside = (gate: string, part: string): boolean => gate !== 'path' || !part.startsWith('c->')

const moved = (v: Verdict): boolean => v === 'regression' || v === 'improvement'

/**
 * Which hops explain a case's answer, in absolute time, among the parts inside its verdict metric.
 * For a regression or improvement, the parts that moved the same way; for any other answer, every
 * part that moved on its own, so an inconclusive headline still says where the data did see a
 * change. Null when nothing moved.
 */
export function explain(metrics: readonly Moved[]): Explanation | null {
  const gate = metrics.find(m => m.gating)
  if (!gate) return null
  const decided = moved(gate.verdict)
  const hops = metrics
    .filter(m => isPart(m.metric) && inside(gate.metric, m.metric) && !m.gating && moved(m.verdict))
    .filter(m => !decided || m.verdict === gate.verdict)
    .sort((a, b) => Math.abs(b.delta) - Math.abs(a.delta))
    .slice(0, 3)
  if (!hops.length) return null
  const sum = hops.reduce((a, m) => a + m.delta, 0)
  return { gate, hops, share: decided && gate.delta !== 0 ? sum / gate.delta : null }
}
