/** Numbers as the reports print them. */

export function fmtSeconds(s: number): string {
  if (s >= 1) return `${s.toFixed(3)} s`
  if (s >= 1e-3) return `${(s * 1e3).toFixed(2)} ms`
  return `${(s * 1e6).toFixed(0)} µs`
}

/** A time difference, signed. */
export const fmtDelta = (s: number): string => `${s >= 0 ? '+' : '−'}${fmtSeconds(Math.abs(s))}`

/**
 * Past this many per cent a change is only said to be past it: an interval or a detectable change
 * of a few pairs can reach 10^47 %, which no reader can use and which `toFixed` prints as an
 * exponent.
 */
const MAX_PCT = 1000

/** A relative change, signed: one decimal under 10 %, none above, and `>+1000%` past the cap. */
export function fmtChange(c: number): string {
  const pct = c * 100
  if (!(Math.abs(pct) < MAX_PCT)) return `${pct < 0 ? '<−' : '>+'}${MAX_PCT}%`
  const digits = Math.abs(pct) < 10 ? 1 : 0
  return `${pct >= 0 ? '+' : '−'}${Math.abs(pct).toFixed(digits)}%`
}

export const fmtInterval = (ci: readonly [number, number]): string =>
  `${fmtChange(ci[0])} … ${fmtChange(ci[1])}`

/** ± a share, unsigned: the threshold or a detectable change; `more than ±1000%` past the cap. */
export const fmtPlusMinus = (x: number): string =>
  Math.abs(x) * 100 < MAX_PCT ? `±${fmtChange(Math.abs(x)).slice(1)}` : `more than ±${MAX_PCT}%`

/** A p-value to three places; below 0.001 it is only that. */
export const fmtP = (p: number): string => (p < 0.001 ? '< 0.001' : p.toFixed(3))
