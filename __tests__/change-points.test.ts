/**
 * The change-point detector (src/trend/) on constructed series, and against Apache Otava itself
 * on the same series: scripts/otava-venv.sh installs Otava 0.8.0 and scripts/test.sh exports its
 * python as OTAVA_PYTHON.
 */
import { execFileSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { synthetic, type SeriesShape } from '../bench/synthetic-series'
import {
  changePoints,
  forwardChange,
  OTAVA_DEFAULTS,
  type ChangePointOptions
} from '../src/trend/change-points'
import { bestSplit } from '../src/trend/qhat'
import { newSteps, stepsOf } from '../src/trend/steps'

const REFERENCE = path.join(__dirname, 'fixtures', 'otava', 'reference.py')

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
    { windowLength: 30, maxPValue: 0.01, minMagnitude: 0.02 }
  ]) {
    const reference = otava(series, options)
    const ours = series.map(s => changePoints(s, options))
    expect(ours.map(ps => ps.map(p => p.index))).toEqual(reference.map(ps => ps.map(p => p.index)))
    ours.forEach((ps, i) =>
      ps.forEach((p, j) => {
        const r = reference[i][j]
        expect(p.meanBefore).toBeCloseTo(r.meanBefore, 6)
        expect(p.meanAfter).toBeCloseTo(r.meanAfter, 6)
        expect(Math.abs(p.pValue - r.pValue)).toBeLessThanOrEqual(1e-6 + 1e-6 * r.pValue)
      })
    )
    // The comparison is about something: most series have steps, and both found them.
    expect(reference.flat().length).toBeGreaterThan(series.length / 2)
  }
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
