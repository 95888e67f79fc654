import { detectableShift, valuesFor } from '../src/stats/power'
import { mean, std } from '../src/stats/sample'
import { studentTQuantile } from '../src/stats/student-t'
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
