/**
 * The rank-sum test and Hodges–Lehmann shift (src/inference/rank-sum.ts, src/inference/hodges-lehmann.ts) against known values: R's
 * `wilcox.test` documentation example (Hollander & Wolfe 1973, p. 69: permeability constants of
 * the human chorioamnion, x at term and y at 12–26 weeks), whose R output is W = 35, p = 0.2544
 * two-sided (0.1272 one-sided, as printed in `?wilcox.test`), difference in location 0.305 with
 * the 95 % interval [−0.15, 0.76]; and values from scipy 1.16's `mannwhitneyu` (method
 * "asymptotic", use_continuity=True: R's normal approximation with the tie correction).
 */
import { rankShift } from '../src/inference/hodges-lehmann'
import { rankSumTest } from '../src/inference/rank-sum'

const x = [0.8, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46]
const y = [1.15, 0.88, 0.9, 0.74, 1.21]

test("R's example: the exact test and the Hodges–Lehmann interval", () => {
  const r = rankSumTest(x, y)
  expect(r.w).toBe(35)
  expect(r.pValue).toBeCloseTo(0.2544122544, 9)
  // The same samples the other way round: W is mn − 35, p the same.
  expect(rankSumTest(y, x).w).toBe(15)
  expect(rankSumTest(y, x).pValue).toBeCloseTo(r.pValue, 12)
  // R's conf.int is of x − y; the shift of x from y is the same.
  const shift = rankShift(y, x)
  expect(shift.estimate).toBeCloseTo(0.305, 9)
  expect(shift.interval[0]).toBeCloseTo(-0.15, 9)
  expect(shift.interval[1]).toBeCloseTo(0.76, 9)
  // And of y from x, mirrored.
  expect(rankShift(x, y).interval.map(v => +v.toFixed(9))).toEqual([-0.76, 0.15])
})

test('ties: the normal approximation with the tie and continuity corrections', () => {
  const a = [1, 2, 2, 3, 4, 5, 5, 5, 9]
  const b = [2, 3, 6, 6, 7, 8, 8, 10, 11, 12]
  const r = rankSumTest(a, b)
  expect(r.w).toBe(17.5)
  expect(r.pValue).toBeCloseTo(0.02674261431807571, 12)
})

test('50 values or more: the normal approximation', () => {
  // 1…60 against 11.5…65.5: no ties, W by counting (1225), p from scipy.
  const a = Array.from({ length: 60 }, (_, i) => i + 1)
  const b = Array.from({ length: 55 }, (_, i) => i + 11.5)
  let w = 0
  for (const u of a) for (const v of b) w += u > v ? 1 : 0
  expect(w).toBe(1225)
  expect(rankSumTest(a, b).w).toBe(w)
  expect(rankSumTest(a, b).pValue).toBeCloseTo(0.017466219103968242, 12)
})

test('how far off a value lies does not matter, only its side', () => {
  const far = [...x.slice(0, -1), 1000]
  // 3 lies above every other x by more than any y's spread, as 1000 does.
  const near = [...x.slice(0, -1), 3]
  expect(rankSumTest(far, y)).toEqual(rankSumTest(near, y))
  expect(rankShift(y, far)).toEqual(rankShift(y, near))
})

test('degenerate samples: no side, or every value the same, give p = 1', () => {
  expect(rankSumTest([], y).pValue).toBe(1)
  expect(rankSumTest([3, 3, 3], [3, 3]).pValue).toBe(1)
  // Smallest exact p for 3 against 3: both orders of 6 values, 2/20.
  expect(rankSumTest([1, 2, 3], [4, 5, 6]).pValue).toBeCloseTo(0.1, 12)
})
