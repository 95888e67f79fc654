/**
 * Every printed figure takes one of a few forms over the whole range its value can have, from a
 * hair to the 10^47 % a two-pair interval can reach: tests (their forms: helpers/figures.ts) and
 * readers can rely on them.
 */
import { fmtDelta, fmtDuration, fmtElapsed, fmtMs, fmtSeconds } from '../src/text/duration'
import { fmtChange, fmtInterval, fmtPercent, fmtPlusMinus } from '../src/text/percent'
import { fmtRate } from '../src/text/rate'
import { fmtTime } from '../src/text/timestamp'
import { CHANGE, DELTA, DURATION, PLUS_MINUS, SECONDS, SHARE, STEP, re } from './helpers/figures'

const whole = (form: string) => new RegExp(`^${form}$`)
const magnitudes = Array.from({ length: 120 }, (_, i) => 10 ** (i / 2 - 10))
/** Shares from a hair to far past 100 %, either sign, halves and zeros of either sign. */
const values = [
  0,
  -0,
  ...magnitudes,
  ...magnitudes.map(m => -Math.min(m, 0.999999)),
  ...Array.from({ length: 401 }, (_, i) => (i - 200) / 1000 + 0.00005),
  ...[0.025, -0.025, 0.0995, -0.0995, 0.09951, 1, -1, 10, 10.5],
  Infinity
]
/** Seconds from a nanosecond to a day, either sign. */
const seconds = [0, -0, ...magnitudes.map(m => m / 1e3), ...magnitudes.map(m => -m / 1e3)].filter(
  s => Math.abs(s) < 1e5
)

describe('percentages', () => {
  it('a change is signed, with one decimal under 10 %, none above, and capped past ±1000 %', () => {
    for (const v of values) expect(fmtChange(v)).toMatch(whole(CHANGE))
    expect([0.0123, 0.5, -0.999, 9.99, 10, 5.7e45, Infinity].map(fmtChange)).toEqual([
      '+1.2%',
      '+50%',
      '−100%',
      '+999%',
      '>+1000%',
      '>+1000%',
      '>+1000%'
    ])
    expect([-0.0001, -0, 0.09999, -12].map(fmtChange)).toEqual([
      '−0.0%',
      '+0.0%',
      '+10.0%',
      '<−1000%'
    ])
    expect(fmtInterval([-0.99999, 3.6e10])).toBe('−100% … >+1000%')
  })

  it('a ± figure is unsigned and says "more than" past the cap', () => {
    for (const v of values) expect(fmtPlusMinus(v)).toMatch(whole(PLUS_MINUS))
    expect([0.025, 0.091, 0.42, -0.3, 5.73e45].map(fmtPlusMinus)).toEqual([
      '±2.5%',
      '±9.1%',
      '±42%',
      '±30%',
      'more than ±1000%'
    ])
  })

  it("a step's size is signed to one decimal, a hop's share whole and signed only below zero", () => {
    const step = (x: number) => fmtPercent(x, { sign: '+−', spaced: true })
    const share = (x: number) => fmtPercent(x, { decimals: 'round', sign: '−', spaced: true })
    // Uncapped forms hold below 10^21 %, where JavaScript starts printing an exponent.
    for (const v of values.filter(x => Math.abs(x) < 1e19)) {
      expect(step(v)).toMatch(whole(STEP))
      expect(share(v)).toMatch(whole(SHARE))
    }
    expect([0.052, -0.0001, -0, 12.5].map(step)).toEqual([
      '+5.2 %',
      '−0.0 %',
      '+0.0 %',
      '+1250.0 %'
    ])
    // Halves round up, as Math.round does; a share that rounds to zero keeps its minus.
    expect([0.875, -0.025, 0.025, -0.004, 1.4].map(share)).toEqual([
      '88 %',
      '−2 %',
      '3 %',
      '−0 %',
      '140 %'
    ])
  })

  it('a level is as short as exact, a log line signed in ASCII', () => {
    const level = (x: number) => fmtPercent(x, { decimals: 2, trim: true, spaced: true })
    expect([0.95, 0.0125, 0.05, 0.99999, -0.00001].map(level)).toEqual([
      '95 %',
      '1.25 %',
      '5 %',
      '100 %',
      '0 %'
    ])
    expect([0.9995, 0.025].map(x => fmtPercent(x, { decimals: 'round', trim: true }))).toEqual([
      '100%',
      '3%'
    ])
    const log = (x: number) => fmtPercent(x, { sign: '+-' })
    expect([0.052, -0.052, -0.0001, -0].map(log)).toEqual(['+5.2%', '-5.2%', '-0.0%', '+0.0%'])
    expect([0.1, -0.25].map(x => fmtPercent(x, { spaced: true }))).toEqual(['10.0 %', '-25.0 %'])
  })
})

describe('times and rates', () => {
  it('a latency takes the unit its size calls for, and its change a sign', () => {
    for (const s of seconds) {
      expect(fmtSeconds(Math.abs(s))).toMatch(whole(SECONDS))
      expect(fmtDelta(s)).toMatch(whole(DELTA))
    }
    expect([1.5, 0.0123, 0.00042, 0.0009996].map(fmtSeconds)).toEqual([
      '1.500 s',
      '12.30 ms',
      '420 µs',
      '1000 µs'
    ])
    expect([0.0012, -0.00042, -0].map(fmtDelta)).toEqual(['+1.20 ms', '−420 µs', '+0 µs'])
  })

  it('a wall time reads as seconds, minutes or hours', () => {
    for (const s of [...seconds, 89.5, 3599.5, 86400 * 3])
      expect(fmtDuration(s)).toMatch(whole(DURATION))
  })

  it('a table shows milliseconds with two decimals below 10 ms; a log line to its own decimals', () => {
    expect([0.00041, 0.0099949, 0.00999951, 0.0100001, 0.1234].map(s => fmtMs(s))).toEqual([
      '0.41',
      '9.99',
      '10.00',
      '10.0',
      '123.4'
    ])
    expect(fmtMs(0.01234, 1)).toBe('12.3')
    expect(fmtMs(0.4, 0)).toBe('400')
    expect(fmtElapsed(3.21)).toBe('3.2 s')
    expect(fmtElapsed(12.5, 0)).toBe('13 s')
  })

  it('a rate someone named is as short as exact; a measured one to fixed decimals', () => {
    expect([0.5, 5, 12.5, 0.1 + 0.2, 1 / 3].map(r => fmtRate(r))).toEqual([
      '0.5',
      '5',
      '12.5',
      '0.3',
      '0.333333'
    ])
    expect([fmtRate(12.345, 2), fmtRate(3.25, 1), fmtRate(7.5, 0)]).toEqual(['12.35', '3.3', '8'])
  })

  it('a timestamp in a table drops its fractions and names UTC', () => {
    expect(fmtTime('2019-09-27T06:36:57.123Z')).toBe('2019-09-27 06:36:57 UTC')
    expect(fmtTime('2019-09-27T06:36:57+02:00')).toBe('2019-09-27 06:36:57 +02:00')
  })
})

test('the forms compose into a regular expression, taken raw', () => {
  expect(re`^\(${CHANGE}\)$`.test('(+5.2%)')).toBe(true)
  expect(re`^\(${CHANGE}\)$`.test('+5.2%')).toBe(false)
})
