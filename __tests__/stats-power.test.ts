import { detectableShift, sdUpperBound, valuesFor } from '../src/inference/power'
import { mean, std } from '../src/stats/sample'
import { studentTQuantile } from '../src/inference/student-t'
import { normal, rng } from './fixtures/report/samples'

/** Share of simulated one-sample t-tests of n N(shift, 1) values that reject at `level`. */
function simulatedPower(shift: number, n: number, level: number, seed: number): number {
  const next = rng(seed)
  const q = studentTQuantile(1 - level / 2, n - 1)
  const trials = 20_000
  let hits = 0
  for (let i = 0; i < trials; i++) {
    const xs = Array.from({ length: n }, () => shift + normal(next))
    if (Math.abs(mean(xs) / (std(xs) / Math.sqrt(n))) > q) hits++
  }
  return hits / trials
}

describe('the change found with 80 % power', () => {
  test('tends to the z form (1.95996 + 0.84162) · sd / √n for many values', () => {
    // Φ⁻¹(0.975) + Φ⁻¹(0.8) = 2.80158: the textbook "7.85 = 2.80²" of one-sample sizes.
    expect(detectableShift(1, 100_000, 0.05) * Math.sqrt(100_000)).toBeCloseTo(2.80158, 3)
    expect(detectableShift(0.03, 100_000, 0.05)).toBeCloseTo((0.03 * 2.80158) / Math.sqrt(1e5), 6)
  })

  test('a t-test finds it about 80 % of the time, also with few values and a small level', () => {
    // The approximation understates the shift for very few values: power a little under 80 %.
    for (const [n, level, low] of [
      [6, 0.05, 0.77],
      [6, 0.0114, 0.74],
      [14, 0.0114, 0.77],
      [30, 0.05, 0.78]
    ] as const) {
      const p = simulatedPower(detectableShift(1, n, level), n, level, n)
      expect(p).toBeGreaterThan(low)
      expect(p).toBeLessThan(0.82)
    }
  })

  test('how many values it takes is the inverse', () => {
    const n = valuesFor(0.03, 0.02, 0.05)!
    expect(detectableShift(0.03, n, 0.05)).toBeLessThanOrEqual(0.02)
    expect(detectableShift(0.03, n - 1, 0.05)).toBeGreaterThan(0.02)
    expect(valuesFor(0.03, 0, 0.05)).toBeNull()
    expect(valuesFor(0, 0.01, 0.05)).toBeNull()
    expect(valuesFor(1, 1e-6, 0.05, { most: 1000 })).toBe(1000)
  })
})

describe('the upper confidence bound of a spread', () => {
  test('is s · √((n − 1) / χ²(1 − confidence, n − 1)) within 1 %', () => {
    // χ²(0.2, ν) for ν = 5, 13, 29 and χ²(0.05, 5), from any χ² table.
    for (const [n, confidence, chi2] of [
      [6, 0.8, 2.342541],
      [14, 0.8, 8.633861],
      [30, 0.8, 22.47464],
      [6, 0.95, 1.145476]
    ] as const) {
      const exact = Math.sqrt((n - 1) / chi2)
      expect(sdUpperBound(1, n, confidence) / exact).toBeGreaterThan(0.99)
      expect(sdUpperBound(1, n, confidence) / exact).toBeLessThan(1.01)
      expect(sdUpperBound(0.03, n, confidence)).toBeCloseTo(
        0.03 * sdUpperBound(1, n, confidence),
        12
      )
    }
    expect(() => sdUpperBound(1, 1, 0.8)).toThrow(RangeError)
  })

  test('a change stated at the bound is found at least 80 % of the time; at the sample s.d., less', () => {
    // The stated change comes from one sample's s.d., the test from another sample of n values.
    const next = rng(53)
    const trials = 10_000
    for (const [n, level] of [
      [6, 0.0114],
      [14, 0.0114],
      [30, 0.0017]
    ] as const) {
      const q = studentTQuantile(1 - level / 2, n - 1)
      const draw = (shift: number) => Array.from({ length: n }, () => shift + normal(next))
      const found = (shift: number) => {
        const xs = draw(shift)
        return mean(xs) / (std(xs) / Math.sqrt(n)) > q
      }
      let [atBound, atSample] = [0, 0]
      for (let i = 0; i < trials; i++) {
        const s = std(draw(0))
        if (found(detectableShift(sdUpperBound(s, n, 0.8), n, level))) atBound++
        if (found(detectableShift(s, n, level))) atSample++
      }
      expect(atBound / trials).toBeGreaterThan(0.8)
      expect(atSample / trials).toBeLessThan(0.8)
    }
  })
})
