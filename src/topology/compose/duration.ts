/** Seconds per unit of a Go duration, which Compose's durations are (`1m30s`, `500ms`). */
const UNITS: Record<string, number> = {
  ns: 1e-9,
  us: 1e-6,
  µs: 1e-6,
  ms: 1e-3,
  s: 1,
  m: 60,
  h: 3600
}

/** A Compose duration in seconds, or NaN when it is not one. */
export function durationSec(text: string): number {
  if (
    !/^(\d+(\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)((\d+(\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h))*$/.test(text)
  ) {
    return text === '0' ? 0 : NaN
  }
  let total = 0
  for (const [, n, unit] of text.matchAll(/(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/g)) {
    total += Number(n) * UNITS[unit]
  }
  return total
}
