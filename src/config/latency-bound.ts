/** `5x` (times the p50 latency of the sweep's first, lowest step), or a duration: `250ms`, `2s`. */
export type LatencyBound =
  { kind: 'relative'; factor: number } | { kind: 'absolute'; seconds: number }

/** The `sweep-max-latency` input; null when it is neither form. */
export function parseLatencyBound(text: string): LatencyBound | null {
  const m = /^(\d+(?:\.\d+)?)(x|ms|s)$/.exec(text.trim())
  if (!m || Number(m[1]) <= 0) return null
  const n = Number(m[1])
  if (m[2] === 'x') return { kind: 'relative', factor: n }
  return { kind: 'absolute', seconds: m[2] === 'ms' ? n / 1000 : n }
}
