/** Times for people: a wall time, a latency and its change, a table's milliseconds. */

/** A wall time for people: `42 s`, `3 min 05 s`, `1 h 02 min`. */
export function fmtDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds))
  if (s < 90) return `${s} s`
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`
  return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} min`
}

/** A latency in the unit its size calls for: `1.234 s`, `12.34 ms`, `420 µs`. */
export function fmtSeconds(s: number): string {
  if (s >= 1) return `${s.toFixed(3)} s`
  if (s >= 1e-3) return `${(s * 1e3).toFixed(2)} ms`
  return `${(s * 1e6).toFixed(0)} µs`
}

/** A time difference, signed: `+1.20 ms`, `−420 µs`. */
export const fmtDelta = (s: number): string => `${s >= 0 ? '+' : '−'}${fmtSeconds(Math.abs(s))}`

/**
 * Seconds as a figure in milliseconds, without the unit: to `decimals`, or where left out as
 * tables show every latency, two decimals below 10 ms (a sub-millisecond hop reads 0.41, not
 * 0.0) and one above.
 */
export function fmtMs(seconds: number, decimals?: number): string {
  const ms = seconds * 1000
  return ms.toFixed(decimals ?? (Math.abs(ms) < 10 ? 2 : 1))
}

/** How long a step of a run took, for its log line: `3.2 s` (to a tenth unless told). */
export const fmtElapsed = (seconds: number, decimals = 1): string =>
  `${seconds.toFixed(decimals)} s`
