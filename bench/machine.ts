import * as os from 'node:os'

/** The machine's load averages (1, 5, 15 min): every noise figure is reported with them. */
export const loadAverage = (): string =>
  os
    .loadavg()
    .map(l => l.toFixed(2))
    .join(' ')

/** A relative change as a signed percentage with one decimal, e.g. `+4.5%`. */
export const signedPct = (x: number): string => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`

export const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length

/** Coefficient of variation: sample standard deviation over the mean. */
export function cv(xs: number[]): number {
  const m = mean(xs)
  return Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1)) / m
}
