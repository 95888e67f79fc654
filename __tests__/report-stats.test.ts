import { median, variance } from '../src/stats/sample'
import { trimmedMean } from '../src/stats/trimmed'
import { studentTCdf, studentTQuantile } from '../src/inference/student-t'
import { trimmedTTest } from '../src/inference/yuen'

describe('report statistics', () => {
  test('median and variance of small samples', () => {
    expect(median([3, 1, 2])).toBe(2)
    expect(median([4, 1, 3, 2])).toBe(2.5)
    expect(variance([1, 2, 3, 4, 5])).toBeCloseTo(2.5, 12)
    expect(() => median([])).toThrow(RangeError)
  })

  test("Student's t tails, where the p-value lies, match closed forms", () => {
    // df 1 (Cauchy): 1/2 + atan(t)/π; df 2: 1/2 + t / (2√(2 + t²));
    // df 3: 1/2 + (t√3 / (3 + t²) + atan(t/√3)) / π.
    expect(studentTCdf(-3, 1)).toBeCloseTo(0.5 + Math.atan(-3) / Math.PI, 10)
    expect(studentTCdf(-5, 2)).toBeCloseTo(0.5 - 5 / (2 * Math.sqrt(27)), 10)
    const t3 = (t: number) =>
      0.5 + ((t * Math.sqrt(3)) / (3 + t * t) + Math.atan(t / Math.sqrt(3))) / Math.PI
    expect(studentTCdf(-4, 3)).toBeCloseTo(t3(-4), 10)
    expect(studentTCdf(2.5, 3)).toBeCloseTo(t3(2.5), 10)
  })

  test("Student's t distribution matches closed forms and tables", () => {
    expect(studentTCdf(0, 3)).toBeCloseTo(0.5, 12)
    expect(studentTCdf(1, 1)).toBeCloseTo(0.75, 10) // Cauchy
    expect(studentTCdf(1, 2)).toBeCloseTo(0.5 + 1 / (2 * Math.sqrt(3)), 10)
    expect(studentTQuantile(0.975, 4)).toBeCloseTo(2.776445, 5)
    expect(studentTQuantile(0.975, 1e7)).toBeCloseTo(1.959964, 4)
  })

  test("Welch's test reproduces R's t.test(1:5, c(2,4,6,8,10))", () => {
    const w = trimmedTTest([1, 2, 3, 4, 5], [2, 4, 6, 8, 10], { trim: 0 })
    expect(w.diff).toBe(3)
    expect(w.df).toBeCloseTo(5.8824, 4)
    expect(w.p).toBeCloseTo(0.1075, 4)
    expect(w.ci[0]).toBeCloseTo(3 - studentTQuantile(0.975, w.df) * Math.sqrt(2.5), 10)
  })

  test('with fewer than 5 values nothing is trimmed: Welch', () => {
    const a = [1, 2.5, 2]
    const b = [3, 4, 3.2, 3.9]
    expect(trimmedTTest(a, b)).toEqual(trimmedTTest(a, b, { trim: 0 }))
  })

  test("Yuen's test: one wild value moves neither the estimate nor the interval much", () => {
    const a = [1.0, 1.02, 0.98, 1.01, 0.99, 1.0, 1.03, 0.97, 1.01, 0.99]
    const b = a.map(x => x + 0.05)
    const wild = [...b.slice(0, 9), 9]
    expect(trimmedMean(wild, 0.2)).toBeCloseTo(trimmedMean(b, 0.2), 2)
    const clean = trimmedTTest(a, b)
    const hit = trimmedTTest(a, wild)
    expect(clean.p).toBeLessThan(1e-4)
    expect(hit.p).toBeLessThan(1e-3)
    expect(hit.ci[1] - hit.ci[0]).toBeLessThan(3 * (clean.ci[1] - clean.ci[0]))
    // Welch on the same data is swamped by the wild value.
    expect(trimmedTTest(a, wild, { trim: 0 }).p).toBeGreaterThan(0.1)
  })

  test('Yuen matches a hand computation', () => {
    // n = 10, g = 2: kept 3..8 (mean 5.5); winsorized 3,3,3,4,5,6,7,8,8,8 has variance 42.5 / 9;
    // d = 9 × (42.5 / 9) / (6 × 5) = 42.5 / 30 per side; df = (2d)² / (2d² / 5) = 10.
    const a = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    const w = trimmedTTest(
      a,
      a.map(x => x + 2)
    )
    expect(w.diff).toBeCloseTo(2, 12)
    expect(w.df).toBeCloseTo(10, 10)
    expect(w.p).toBeCloseTo(2 * studentTCdf(-2 / Math.sqrt(85 / 30), 10), 12)
  })

  test('no spread on either side is exact', () => {
    expect(trimmedTTest([2, 2], [2, 2]).p).toBe(1)
    expect(trimmedTTest([2, 2], [3, 3])).toMatchObject({ p: 0, diff: 1, ci: [1, 1] })
  })
})
