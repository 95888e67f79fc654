import {
  incompleteBeta,
  logGamma,
  median,
  studentTCdf,
  studentTQuantile,
  variance,
  welchTest
} from '../src/report/stats'

describe('report statistics', () => {
  test('median and variance of small samples', () => {
    expect(median([3, 1, 2])).toBe(2)
    expect(median([4, 1, 3, 2])).toBe(2.5)
    expect(variance([1, 2, 3, 4, 5])).toBeCloseTo(2.5, 12)
    expect(() => median([])).toThrow(RangeError)
  })

  test('log-gamma and the incomplete beta function match closed forms', () => {
    expect(logGamma(5)).toBeCloseTo(Math.log(24), 10)
    expect(logGamma(0.5)).toBeCloseTo(Math.log(Math.sqrt(Math.PI)), 10)
    // I_x(1, 1) = x and I_x(a, 1) = x^a.
    expect(incompleteBeta(0.3, 1, 1)).toBeCloseTo(0.3, 10)
    expect(incompleteBeta(0.6, 3, 1)).toBeCloseTo(0.216, 10)
  })

  test("Student's t distribution matches closed forms and tables", () => {
    expect(studentTCdf(0, 3)).toBeCloseTo(0.5, 12)
    expect(studentTCdf(1, 1)).toBeCloseTo(0.75, 10) // Cauchy
    expect(studentTCdf(1, 2)).toBeCloseTo(0.5 + 1 / (2 * Math.sqrt(3)), 10)
    expect(studentTQuantile(0.975, 4)).toBeCloseTo(2.776445, 5)
    expect(studentTQuantile(0.975, 1e7)).toBeCloseTo(1.959964, 4)
  })

  test("Welch's test reproduces R's t.test(1:5, c(2,4,6,8,10))", () => {
    const w = welchTest([1, 2, 3, 4, 5], [2, 4, 6, 8, 10])
    expect(w.diff).toBe(3)
    expect(w.df).toBeCloseTo(5.8824, 4)
    expect(w.p).toBeCloseTo(0.1075, 4)
    expect(w.ci[0]).toBeCloseTo(3 - studentTQuantile(0.975, w.df) * Math.sqrt(2.5), 10)
  })

  test('Welch with no spread on either side is exact', () => {
    expect(welchTest([2, 2], [2, 2]).p).toBe(1)
    expect(welchTest([2, 2], [3, 3])).toMatchObject({ p: 0, diff: 1, ci: [1, 1] })
  })
})
