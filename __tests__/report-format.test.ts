/**
 * The report's percentages take one of a few forms over the whole range a change can have, from
 * a hair to the 10^47 % a two-pair interval can reach: tests and readers can rely on them.
 */
import { fmtChange, fmtInterval, fmtPlusMinus } from '../src/report/format'

const CHANGE = /^(?:[+−]\d+(?:\.\d)?%|>\+1000%|<−1000%)$/
const PLUS_MINUS = /^(?:±\d+(?:\.\d)?%|more than ±1000%)$/

describe('percentages in reports', () => {
  const magnitudes = Array.from({ length: 120 }, (_, i) => 10 ** (i / 2 - 10))
  const values = [0, ...magnitudes, ...magnitudes.map(m => -Math.min(m, 0.999999)), Infinity]

  it('a change is signed, with one decimal under 10 %, none above, and capped past ±1000 %', () => {
    for (const v of values) expect(fmtChange(v)).toMatch(CHANGE)
    expect([0.0123, 0.5, -0.999, 9.99, 10, 5.7e45, Infinity].map(fmtChange)).toEqual([
      '+1.2%',
      '+50%',
      '−100%',
      '+999%',
      '>+1000%',
      '>+1000%',
      '>+1000%'
    ])
    expect(fmtInterval([-0.99999, 3.6e10])).toBe('−100% … >+1000%')
  })

  it('a ± figure is unsigned and says "more than" past the cap', () => {
    for (const v of values) expect(fmtPlusMinus(v)).toMatch(PLUS_MINUS)
    expect([0.025, 0.091, 0.42, 5.73e45].map(fmtPlusMinus)).toEqual([
      '±2.5%',
      '±9.1%',
      '±42%',
      'more than ±1000%'
    ])
  })
})
