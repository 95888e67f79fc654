/**
 * Shares printed as percentages: one formatter, whose style says what differs between the places
 * that print one (a comment's change, a chart's step, a hop's share, a level, a log line).
 */

/** How a share is printed; every field left out prints as a log line would. */
export interface PercentStyle {
  /**
   * Decimals (1 when left out); `'change'`: one under 10 %, none from 10 % up; `'round'`: whole
   * per cents as `Math.round` makes them, halves up (−2.5 → −2, where 0 decimals give −3).
   */
  decimals?: number | 'change' | 'round'
  /** Trailing zeros dropped, as short as exact to the decimals (`1.25 %`, `5 %`); 0 unsigned. */
  trim?: boolean
  /**
   * The signs shown: `'+−'` both, `'−'` a minus only (U+2212, as prose sets it); `'+-'` and
   * `'-'` (the default) the same with ASCII's hyphen-minus, as JavaScript prints a number.
   */
  sign?: '+−' | '−' | '+-' | '-'
  /** A space before the per-cent sign: `5 %` rather than `5%`. */
  spaced?: boolean
}

/**
 * `x` (a share: 0.052) as a percentage (`+5.2%`). The sign is the value's, so a share that rounds
 * to zero keeps its minus (`−0.0%`) unless trimmed; negative zero takes the plus, NaN no sign.
 */
export function fmtPercent(x: number, style: PercentStyle = {}): string {
  const { decimals = 1, trim = false, sign = '-', spaced = false } = style
  const pct = x * 100
  const digits = decimals === 'change' ? (Math.abs(pct) < 10 ? 1 : 0) : decimals
  const figure =
    digits === 'round' ? String(Math.abs(Math.round(pct))) : Math.abs(pct).toFixed(digits)
  const shown = trim ? String(Number(figure)) : figure
  const negative = pct < 0 && !(trim && Number(figure) === 0)
  const mark = negative ? sign[sign.length - 1] : pct >= 0 && sign.length === 2 ? sign[0] : ''
  return `${mark}${shown}${spaced ? ' %' : '%'}`
}

/**
 * Past this many per cent a change is only said to be past it: an interval or a detectable change
 * of a few pairs can reach 10^47 %, which no reader can use and which `toFixed` prints as an
 * exponent.
 */
const MAX_PCT = 1000

/** A relative change as reports print it: `+5.2%`, `−12%`, and `>+1000%` past the cap. */
export const fmtChange = (c: number): string =>
  Math.abs(c) * 100 < MAX_PCT
    ? fmtPercent(c, { decimals: 'change', sign: '+−' })
    : `${c * 100 < 0 ? '<−' : '>+'}${MAX_PCT}%`

export const fmtInterval = (ci: readonly [number, number]): string =>
  `${fmtChange(ci[0])} … ${fmtChange(ci[1])}`

/** ± a share, unsigned: the threshold or a detectable change; `more than ±1000%` past the cap. */
export const fmtPlusMinus = (x: number): string =>
  Math.abs(x) * 100 < MAX_PCT
    ? `±${fmtPercent(Math.abs(x), { decimals: 'change' })}`
    : `more than ±${MAX_PCT}%`
