/**
 * The change-point bench's count (bench/change-point-score.ts): a change point finds a step only
 * near it, the step's way, and by about its size, so a point at a spell's end that reports the
 * spell finds nothing.
 */
import { FACTOR, tally, tellsStep, TOLERANCE } from '../bench/change-point-score'
import type { SeriesShape } from '../bench/synthetic-series'

const shape: SeriesShape = {
  length: 100,
  cv: 0.03,
  steps: [{ at: 60, size: 0.1 }],
  spells: [{ at: 56, length: 4, factor: 3 }]
}

test('a point tells a step by its direction and a size within the factor', () => {
  expect(tellsStep(0.1, 0.1)).toBe(true)
  expect(tellsStep(0.1 / FACTOR, 0.1)).toBe(true)
  expect(tellsStep(0.1 * FACTOR, 0.1)).toBe(true)
  expect(tellsStep(0.1 / FACTOR - 0.001, 0.1)).toBe(false)
  expect(tellsStep(0.1 * FACTOR + 0.001, 0.1)).toBe(false)
  expect(tellsStep(-0.1, 0.1)).toBe(false)
  expect(tellsStep(-0.1, -0.1)).toBe(true)
})

test("a point at a spell's end finds the step after it only if it reports the step", () => {
  // The spell's start (56) and end (60): the end reports the fall from the spell to the new level.
  const spellEnds = tally(shape, [
    [
      { index: 56, change: 2 },
      { index: 60, change: 1.1 / 3 - 1 }
    ]
  ]).rates()
  expect(spellEnds.found.r).toBe(0)
  expect(spellEnds.false.r).toBe(2)
  // A point at the spell's start is at the step too (the spell's entries do not count), and
  // finds it when it reports it; the one left is false.
  const told = tally(shape, [
    [
      { index: 56, change: 0.1 },
      { index: 80, change: 0.05 }
    ]
  ]).rates()
  expect(told.found.r).toBe(1)
  expect(told.error).toBe(0)
  expect(told.false.r).toBe(1)
  // Beyond the tolerance, no step is found.
  const far = tally(shape, [[{ index: 60 + TOLERANCE + 1, change: 0.1 }]]).rates()
  expect(far.found.r).toBe(0)
})

test('rates pool the series, and a difference on the same series has its own error', () => {
  const clean: SeriesShape = { length: 50, cv: 0.03, steps: [{ at: 30, size: 0.1 }] }
  const hit = [{ index: 30, change: 0.1 }]
  const a = tally(clean, [hit, hit, [], hit])
  const b = tally(clean, [hit, [], [], hit])
  expect(a.rates().found.r).toBe(3 / 4)
  expect(b.rates().found.r).toBe(2 / 4)
  expect(a.rates().found.se).toBeGreaterThan(0)
  // The same detections: no difference and no error.
  expect(a.difference(a)).toMatch(/^found 0\.0 ± 0\.0 points, false 0\.000 ± 0\.000/)
  expect(a.difference(b)).toMatch(/^found 25\.0 ± \d+\.\d points/)
})
