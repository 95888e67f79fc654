import { esdCritical, outliers } from '../src/inference/outliers'
import { normal, rng } from './fixtures/report/samples'

/**
 * Rosner's generalized ESD test against the worked example of the NIST/SEMATECH e-Handbook of
 * Statistical Methods, §1.3.5.17.3 (Rosner's 54 values; the handbook's R code prints the critical
 * values λ₁…λ₁₀ = 3.158794, 3.151430, 3.143890, … and finds 3 outliers at α = 0.05).
 */
const ROSNER = [
  -0.25, 0.68, 0.94, 1.15, 1.2, 1.26, 1.26, 1.34, 1.38, 1.43, 1.49, 1.49, 1.55, 1.56, 1.58, 1.65,
  1.69, 1.7, 1.76, 1.77, 1.81, 1.91, 1.94, 1.96, 1.99, 2.06, 2.09, 2.1, 2.14, 2.15, 2.23, 2.24,
  2.26, 2.35, 2.37, 2.4, 2.47, 2.54, 2.62, 2.64, 2.9, 2.92, 2.92, 2.93, 3.21, 3.26, 3.3, 3.59, 3.68,
  4.3, 4.64, 5.34, 5.42, 6.01
]

describe("Rosner's generalized ESD test", () => {
  test('critical values match the NIST handbook', () => {
    expect(esdCritical(54, 1, 0.05)).toBeCloseTo(3.158794, 5)
    expect(esdCritical(54, 2, 0.05)).toBeCloseTo(3.15143, 5)
    expect(esdCritical(54, 3, 0.05)).toBeCloseTo(3.14389, 5)
    expect(esdCritical(54, 10, 0.05)).toBeCloseTo(3.085425, 5)
  })

  test('finds the handbook’s three outliers, though the first two alone would not pass', () => {
    // R₁ = 3.119 < λ₁ and R₂ = 2.943 < λ₂, but R₃ = 3.179 > λ₃: all three are outliers.
    const found = outliers(ROSNER, { alpha: 0.05, share: 10 / 54 })
    expect(found.map(i => ROSNER[i])).toEqual([5.34, 5.42, 6.01])
  })

  test('at most a share of the values, and none without enough values or spread', () => {
    const clean = [0.01, -0.01, 0.02, 0, -0.02, 0.01, 0, -0.01, 0.015]
    const two = [...clean, 1, -1]
    expect(outliers(two, { alpha: 0.05, share: 0.2 })).toEqual([9, 10])
    // Allowed one removal, the other wild value inflates the spread and masks the first: none.
    // Testing further removals is what finds both.
    expect(outliers(two, { alpha: 0.05, share: 0.1 })).toEqual([])
    expect(outliers([...clean, 1], { alpha: 0.05, share: 0.1 })).toEqual([9])
    expect(outliers([0, 0, 0, 0, 1], { alpha: 0.05, share: 0.1 })).toEqual([])
    expect(outliers([1, 1, 1, 1, 1, 1], { alpha: 0.05, share: 0.2 })).toEqual([])
  })

  test('sets a pair of clean normal values aside about α of the time', () => {
    const next = rng(7)
    const trials = 4000
    let flagged = 0
    for (let i = 0; i < trials; i++) {
      const xs = Array.from({ length: 14 }, () => normal(next))
      if (outliers(xs, { alpha: 0.05, share: 0.2 }).length) flagged++
    }
    // Rosner's λ hold the rate near α for one or more removals; 4000 trials: s.e. 0.35 %.
    expect(flagged / trials).toBeGreaterThan(0.035)
    expect(flagged / trials).toBeLessThan(0.075)
  })
})
