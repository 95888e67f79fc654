/**
 * The forms of the printed figures (src/text/), as regular-expression sources, for tests that
 * assert on measured or random figures: each covers every value its formatter can print (one
 * decimal or none, a sign or none, 100 % and past it, the cap, rounding to zero), and
 * __tests__/text-figures.test.ts holds every formatter to its form over that whole range.
 */

/** A relative change (`fmtChange`): `+5.2%`, `−12%`, `>+1000%`. */
export const CHANGE = String.raw`(?:[+−]\d+(?:\.\d)?%|>\+1000%|<−1000%)`

/** An unsigned ± figure (`fmtPlusMinus`): `±9.1%`, `±42%`, `more than ±1000%`. */
export const PLUS_MINUS = String.raw`(?:±\d+(?:\.\d)?%|more than ±1000%)`

/** A step's size on the charts and in the README: `+5.2 %`, `−0.0 %`. */
export const STEP = String.raw`[+−]\d+\.\d %`

/** A hop's share of a change, in whole per cents: `87 %`, `−3 %`, `140 %`. */
export const SHARE = String.raw`−?\d+ %`

/** A latency, unsigned (`fmtSeconds`): `1.234 s`, `12.34 ms`, `420 µs`. */
export const SECONDS = String.raw`(?:\d+\.\d{3} s|\d+\.\d\d ms|\d+ µs)`

/** A latency's change (`fmtDelta`): `+1.20 ms`, `−420 µs`. */
export const DELTA = String.raw`[+−]${SECONDS}`

/** A wall time (`fmtDuration`): `42 s`, `3 min 05 s`, `1 h 02 min`. */
export const DURATION = String.raw`\d+ (?:s|min \d\d s|h \d\d min)`

/** A regular expression whose text is taken raw, the figures' forms put in where named. */
export const re = (text: TemplateStringsArray, ...forms: string[]): RegExp =>
  new RegExp(String.raw(text, ...forms))
