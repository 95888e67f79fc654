/**
 * The change-point detector (src/trend/) on constructed series, and against Apache Otava itself
 * on the same series: scripts/otava-venv.sh installs Otava 0.8.0 and scripts/test.sh exports its
 * python as OTAVA_PYTHON.
 */
import { execFileSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { synthetic, type SeriesShape } from '../bench/synthetic-series'
import { importLegacy } from '../src/history/legacy'
import {
  changePoints,
  OTAVA_DEFAULTS,
  ROBUST_DEFAULTS,
  type ChangePointOptions
} from '../src/trend/change-points'
import { bestSplit, peakNear } from '../src/trend/qhat'
import { forwardChange, RANK_TEST } from '../src/trend/significance'
import { midRanks } from '../src/inference/ranks'
import { REFERENCE_STEP_OPTIONS, seriesSteps, STEP_OPTIONS } from '../src/trend/series'
import { newSteps, stepsOf } from '../src/trend/steps'

const REFERENCE = path.join(__dirname, 'fixtures', 'otava', 'reference.py')
/** The old pipeline's published files, byte for byte from shared/legacy-gnes-benchmark. */
const LEGACY_DIR = path.join(__dirname, 'fixtures', 'legacy')

function otavaPython(): string {
  const python = process.env.OTAVA_PYTHON ?? '/var/cache/gnes-latency-bench/otava-0.8.0/bin/python'
  if (!fs.existsSync(python))
    throw new Error(`no Otava at ${python}: run scripts/otava-venv.sh (npm test does)`)
  return python
}

interface Reference {
  index: number
  pValue: number
  meanBefore: number
  meanAfter: number
}

function otava(series: number[][], options: ChangePointOptions): Reference[][] {
  const out = execFileSync(otavaPython(), [REFERENCE], {
    input: JSON.stringify({ options, series }),
    encoding: 'utf8'
  })
  return JSON.parse(out) as Reference[][]
}

/** Brute force Q̂ of one split, straight from its definition. */
function qhat(x: number[], y: number[]): number {
  const d = (a: number[], b: number[]) =>
    a.reduce((s, u) => s + b.reduce((t, v) => t + Math.abs(u - v), 0), 0)
  const within = (a: number[]) => d(a, a) / 2
  const n = x.length
  const m = y.length
  const b = n > 1 ? ((2 * m) / (m + n) / (n - 1)) * within(x) : 0
  const c = m > 1 ? ((2 * n) / (m + n) / (m - 1)) * within(y) : 0
  return (2 / (m + n)) * d(x, y) - b - c
}

test('the best split is the maximum of Q̂ over every split, by its definition', () => {
  const s = synthetic({ length: 23, cv: 0.05, steps: [{ at: 9, size: 0.08 }] }, 7)
  const best = bestSplit(s, 3, 21)!
  let max = -Infinity
  let at = -1
  for (let tau = 4; tau < 21; tau++)
    for (let kappa = tau + 1; kappa <= 21; kappa++) {
      const q = qhat(s.slice(3, tau), s.slice(tau, kappa))
      if (q > max + 1e-9) [max, at] = [q, tau]
    }
  expect(best.index).toBe(at)
  expect(best.qhat).toBeCloseTo(max, 6)
  expect(bestSplit(s, 4, 5)).toBeNull()
})

test('the peak near a split is the maximum of Q̂ over the splits within reach, by its definition', () => {
  const s = synthetic({ length: 30, cv: 0.02, steps: [{ at: 12, size: 0.06 }] }, 8)
  for (const [index, reach] of [
    [15, 3],
    [12, 1],
    [20, 2],
    [2, 4]
  ]) {
    let max = -Infinity
    let at = -1
    for (let tau = Math.max(1, index - reach); tau <= Math.min(29, index + reach); tau++)
      for (let kappa = tau + 1; kappa <= 30; kappa++) {
        const q = qhat(s.slice(0, tau), s.slice(tau, kappa))
        if (q > max + 1e-9) [max, at] = [q, tau]
      }
    expect({ index, reach, at: peakNear(s, 0, 30, index, reach) }).toEqual({ index, reach, at })
  }
  // Within reach of the true step, the peak is the values' best split of the whole stretch.
  expect(peakNear(s, 0, 30, 15, 3)).toBe(bestSplit(s, 0, 30)!.index)
  // No split with a positive Q̂ (every value the same): the split stays where it was.
  expect(peakNear(Array(12).fill(5), 0, 12, 7, 3)).toBe(7)
})

test.each([
  [115, 22, 20],
  [136, 20, 18]
])(
  "a step the ranks' Q̂ placed 2 entries from Otava is placed where Otava places it (seed %i)",
  (seed, onRanks, onValues) => {
    // 2 % noise, a 6 % step at 20: on ranks the gap between the levels is lost (a step of many
    // noise widths ranks as one of two), so Q̂'s peak on them is flat and the noise moves it.
    const s = synthetic({ length: 40, cv: 0.02, steps: [{ at: 20, size: 0.06 }] }, seed)
    expect(bestSplit(midRanks(s).ranks, 0, 40)!.index).toBe(onRanks)
    expect(bestSplit(s, 0, 40)!.index).toBe(onValues)
    const otava = changePoints(s, OTAVA_DEFAULTS).map(p => p.index)
    expect(otava).toEqual([onValues])
    expect(changePoints(s, ROBUST_DEFAULTS).map(p => p.index)).toEqual(otava)
  }
)

test('one step is found where it is, with its size; a flat series and lone spikes give none', () => {
  const step = synthetic({ length: 60, cv: 0.03, steps: [{ at: 35, size: 0.1 }] }, 1)
  // The strongest point is the step (on this series, as in Otava, the noise of the 14 entries
  // after index 46 makes a weaker second one).
  const p = changePoints(step).reduce((a, b) => (b.pValue < a.pValue ? b : a))
  expect(p.index).toBe(35)
  expect(forwardChange(p)).toBeGreaterThan(0.07)
  expect(forwardChange(p)).toBeLessThan(0.13)
  expect(p.pValue).toBeLessThan(OTAVA_DEFAULTS.maxPValue)

  expect(changePoints(synthetic({ length: 200, cv: 0.03, steps: [] }, 2))).toEqual([])
  const spiky = synthetic({ length: 120, cv: 0.03, steps: [], spikes: [30, 77] }, 3)
  expect(changePoints(spiky)).toEqual([])
  expect(changePoints([])).toEqual([])
  expect(changePoints([5])).toEqual([])
  expect(changePoints(Array(40).fill(7))).toEqual([])
})

test('several steps, up and down, each within one entry of where it is', () => {
  const s = synthetic(
    {
      length: 300,
      cv: 0.03,
      steps: [
        { at: 80, size: 0.1 },
        { at: 170, size: -0.2 },
        { at: 240, size: 0.05 }
      ]
    },
    4
  )
  const found = changePoints(s).map(p => p.index)
  expect(found).toHaveLength(3)
  ;[80, 170, 240].forEach((at, i) => expect(Math.abs(found[i] - at)).toBeLessThanOrEqual(1))
})

test('the same change points as Apache Otava on the same series', () => {
  const shapes: SeriesShape[] = [
    { length: 30, cv: 0.03, steps: [{ at: 20, size: 0.05 }] },
    { length: 60, cv: 0.1, steps: [{ at: 31, size: 0.2 }] },
    { length: 120, cv: 0.03, steps: [{ at: 50, size: 0.03 }], spikes: [10, 90] },
    { length: 200, cv: 0.2, steps: [{ at: 100, size: 0.2 }] },
    {
      length: 250,
      cv: 0.05,
      steps: [
        { at: 40, size: 0.1 },
        { at: 160, size: -0.1 }
      ]
    },
    {
      length: 500,
      cv: 0.03,
      steps: [
        { at: 123, size: 0.05 },
        { at: 400, size: 0.1 }
      ]
    },
    { length: 90, cv: 0.1, steps: [] }
  ]
  const series = shapes.flatMap((shape, i) => [
    synthetic(shape, 100 + i),
    synthetic(shape, 200 + i)
  ])
  for (const options of [
    OTAVA_DEFAULTS,
    { ...OTAVA_DEFAULTS, windowLength: 30, maxPValue: 0.01, minMagnitude: 0.02 }
  ]) {
    const reference = otava(series, options)
    const ours = series.map(s => changePoints(s, options))
    expect(ours.map(ps => ps.map(p => p.index))).toEqual(reference.map(ps => ps.map(p => p.index)))
    ours.forEach((ps, i) =>
      ps.forEach((p, j) => {
        const r = reference[i][j]
        expect(p.levelBefore).toBeCloseTo(r.meanBefore, 6)
        expect(p.levelAfter).toBeCloseTo(r.meanAfter, 6)
        expect(Math.abs(p.pValue - r.pValue)).toBeLessThanOrEqual(1e-6 + 1e-6 * r.pValue)
      })
    )
    // The comparison is about something: most series have steps, and both found them.
    expect(reference.flat().length).toBeGreaterThan(series.length / 2)
  }
  // The rank test in the same frame, at Otava's defaults, on the same clean series: as many of
  // the true steps found within 3 entries, less one at most (a 30-entry series whose new level
  // of 11 entries the ranks cannot pass at p ≤ 0.001), and no more false points.
  const truth = shapes.flatMap(shape => [shape, shape].map(sh => sh.steps.map(st => st.at)))
  const scored = (found: number[][]) => score(truth, found)
  const reference = scored(otava(series, OTAVA_DEFAULTS).map(ps => ps.map(p => p.index)))
  const robust = scored(series.map(s => changePoints(s, ROBUST_DEFAULTS).map(p => p.index)))
  expect(robust.found).toBeGreaterThanOrEqual(reference.found - 1)
  expect(robust.false).toBeLessThanOrEqual(reference.false)
})

/** True steps found within 3 entries (each point matching one step), and the points left. */
function score(truth: number[][], found: number[][]): { found: number; false: number } {
  let hits = 0
  let points = 0
  truth.forEach((steps, i) => {
    const left = [...found[i]]
    points += left.length
    for (const at of steps) {
      const near = left.findIndex(p => Math.abs(p - at) <= 3)
      if (near >= 0) {
        hits++
        left.splice(near, 1)
      }
    }
  })
  return { found: hits, false: points - hits }
}

/** `values` with the entries from `at` for `length` multiplied by `factor`: a runner's spell. */
const withSpell = (values: number[], at: number, length: number, factor: number): number[] =>
  values.map((v, i) => (i >= at && i < at + length ? v * factor : v))

describe('the rank test (the default) against a spell', () => {
  test("case 1's imported history: both level shifts around its four-entry spell", () => {
    const entries = importLegacy(LEGACY_DIR).filter(e => e.caseId === '1')
    const values = entries.map(e => e.best.roundtrip)
    // Otava's t-test, the port and Otava itself, sees nothing: the spell swamps its variance.
    expect(otava([values], OTAVA_DEFAULTS)).toEqual([[]])
    expect(seriesSteps(entries, 'roundtrip', REFERENCE_STEP_OPTIONS)).toEqual([])

    // What the report, alerts, bisect and the dashboard run by default: the rank test.
    expect(STEP_OPTIONS.significance).toBe(RANK_TEST)
    const [up, down, ...rest] = seriesSteps(entries, 'roundtrip')
    expect(rest).toEqual([])
    const ms = (i: number) => entries[i].best.roundtrip * 1000
    // Up from 155–161 ms to 254–261 ms: the last entry at the old level and the first at the
    // new are the commits around it; the four entries of ~3,300 ms between them are the spell.
    expect(ms(entries.indexOf(up.lastBefore))).toBeLessThan(162)
    expect(ms(entries.indexOf(up.firstAfter))).toBeGreaterThan(250)
    expect(up.spell).toBe(4)
    const spell = entries.slice(entries.indexOf(up.lastBefore) + 1, up.index)
    expect(spell).toHaveLength(4)
    spell.forEach(e => expect(e.best.roundtrip).toBeGreaterThan(3))
    // Its size is the levels', the spell set aside: 254–261 over 155–161 ms.
    expect(up.change).toBeGreaterThan(254 / 161 - 1)
    expect(up.change).toBeLessThan(261 / 155 - 1)
    expect(up.interval[0]).toBeGreaterThan(254 / 161 - 1)
    expect(up.interval[1]).toBeLessThan(261 / 155 - 1)
    // Then down to 195–201 ms.
    expect(ms(entries.indexOf(down.lastBefore))).toBeGreaterThan(250)
    expect(ms(entries.indexOf(down.firstAfter))).toBeLessThan(202)
    expect(down.spell).toBe(0)
    expect(down.change).toBeGreaterThan(195 / 261 - 1)
    expect(down.change).toBeLessThan(201 / 254 - 1)
  })

  const clean = (seed: number, steps: SeriesShape['steps']) =>
    synthetic({ length: 100, cv: 0.03, steps }, seed)

  test.each([1, 2, 4])('a spell between equal levels is no step (seed %i)', seed => {
    // Where the windows put a spell's ends, the rank test alone passes them (as Otava's does
    // its ends): set aside, the spell makes none.
    const s = withSpell(clean(seed, []), 45, 5, 20)
    const ends = changePoints(s, { ...ROBUST_DEFAULTS, maxSpell: 0 }).map(p => p.index)
    expect(ends).toHaveLength(2)
    expect(Math.abs(ends[0] - 45)).toBeLessThanOrEqual(1)
    expect(ends[1]).toBe(50)
    expect(changePoints(s, ROBUST_DEFAULTS)).toEqual([])
  })

  test.each([1, 2, 3])('a spell elsewhere hides no step, nor makes two (seed %i)', seed => {
    const s = withSpell(clean(seed, [{ at: 70, size: 0.1 }]), 30, 4, 20)
    const found = changePoints(s, ROBUST_DEFAULTS)
    expect(found).toHaveLength(1)
    expect(Math.abs(found[0].index - 70)).toBeLessThanOrEqual(1)
    // Otava's t-test reports the spell's two ends as steps.
    const reference = changePoints(s, OTAVA_DEFAULTS).map(p => p.index)
    expect(reference).toEqual(expect.arrayContaining([30, 34]))
  })

  test.each([
    [1, 20],
    [2, 0.3]
  ])('a spell right before a step: one step past it, sized without it (seed %i)', (seed, far) => {
    const s = withSpell(clean(seed, [{ at: 54, size: 0.1 }]), 50, 4, far)
    const [step, ...rest] = stepsOf(s, ROBUST_DEFAULTS)
    expect(rest).toEqual([])
    expect(step).toMatchObject({ index: 54, spell: 4, before: 50, after: 46 })
    expect(step.interval[0]).toBeLessThan(step.change)
    expect(step.interval[1]).toBeGreaterThan(step.change)
    expect(step.interval[0]).toBeGreaterThan(0.05)
    expect(step.interval[1]).toBeLessThan(0.15)
  })
})

test('a step read with its size, interval and the entries on either side', () => {
  const s = synthetic({ length: 80, cv: 0.03, steps: [{ at: 50, size: 0.1 }] }, 11)
  const [step] = stepsOf(s)
  expect(step).toMatchObject({ index: 50, before: 50, after: 30 })
  expect(step.interval[0]).toBeLessThan(step.change)
  expect(step.interval[1]).toBeGreaterThan(step.change)
  expect(step.interval[0]).toBeGreaterThan(0.05)
  expect(step.interval[1]).toBeLessThan(0.15)
})

test('pushes one at a time: each step is announced once, by the push that first shows it', () => {
  for (const seed of [21, 22, 23, 24, 25]) {
    const s = synthetic({ length: 30, cv: 0.02, steps: [{ at: 19, size: 0.05 }] }, seed)
    const announced: { push: number; index: number }[] = []
    for (let push = 2; push <= s.length; push++)
      for (const step of newSteps(s.slice(0, push), push - 1))
        announced.push({ push, index: step.index })
    // Every step it ever showed (the true one, and any the noise made) was announced once.
    const indexes = announced.map(a => a.index)
    expect(new Set(indexes).size).toBe(indexes.length)
    const real = announced.filter(a => Math.abs(a.index - 19) <= 1)
    expect({ seed, real: real.length }).toEqual({ seed, real: 1 })
    expect(real[0].push).toBeGreaterThanOrEqual(20)
  }
  // Seed 23's noise makes a +4 % step at entry 7 that the detection shows at push 15, drops at
  // 16, shows at 17, drops at 18 and keeps from 19 on: one announcement.
  const s = synthetic({ length: 30, cv: 0.02, steps: [{ at: 19, size: 0.05 }] }, 23)
  const shown = (push: number) => stepsOf(s.slice(0, push)).some(step => step.index === 7)
  expect([15, 16, 17, 18, 19].map(shown)).toEqual([true, false, true, false, true])
  const at7 = Array.from({ length: 22 }, (_, i) => i + 9).filter(push =>
    newSteps(s.slice(0, push), push - 1).some(step => step.index === 7)
  )
  expect(at7).toHaveLength(1)
  expect(newSteps([1, 2, 3], 3)).toEqual([])
})
