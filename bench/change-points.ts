/**
 * How well change points are found on series shaped like this project's histories, by
 * src/trend/ and by Apache Otava on the same series: detection rate, false change points per 100
 * entries, position error; and the time of one detection on a 10,000-entry series.
 *
 *   npm run bench:change-points -- [trials per cell (20)]
 *
 * A true step counts as found when a change point lies within 3 entries of it; every other change
 * point is false. Otava runs from scripts/otava-venv.sh's venv (OTAVA_PYTHON to override).
 */
import { execFileSync } from 'node:child_process'
import * as os from 'node:os'
import * as path from 'node:path'
import { changePoints, OTAVA_DEFAULTS, type ChangePointOptions } from '../src/trend/change-points'
import { synthetic, type SeriesShape } from './synthetic-series'

const trials = Number(process.argv[2] ?? 20)
const TOLERANCE = 3
const root = path.join(__dirname, '..')
const python =
  process.env.OTAVA_PYTHON ??
  execFileSync('bash', [path.join(root, 'scripts', 'otava-venv.sh')], { encoding: 'utf8' }).trim()

function otava(series: number[][], options: ChangePointOptions): number[][] {
  const out = execFileSync(
    python,
    [path.join(root, '__tests__', 'fixtures', 'otava', 'reference.py')],
    {
      input: JSON.stringify({ options, series }),
      encoding: 'utf8',
      maxBuffer: 1 << 28
    }
  )
  return (JSON.parse(out) as { index: number }[][]).map(ps => ps.map(p => p.index))
}

interface Score {
  steps: number
  found: number
  false: number
  entries: number
  error: number
}

function score(shape: SeriesShape, found: number[], s: Score): void {
  const unmatched = new Set(found)
  s.entries += shape.length
  for (const step of shape.steps) {
    s.steps++
    const near = found
      .filter(i => unmatched.has(i) && Math.abs(i - step.at) <= TOLERANCE)
      .sort((a, b) => Math.abs(a - step.at) - Math.abs(b - step.at))[0]
    if (near === undefined) continue
    s.found++
    s.error += Math.abs(near - step.at)
    unmatched.delete(near)
  }
  s.false += unmatched.size
}

const fmt = (s: Score): string =>
  `${s.steps ? ((100 * s.found) / s.steps).toFixed(0).padStart(3) + ' %' : '   –'}  ` +
  `${((100 * s.false) / s.entries).toFixed(2).padStart(5)}  ` +
  `${s.found ? (s.error / s.found).toFixed(2) : '–'}`

function cells(): { name: string; shapes: SeriesShape[] }[] {
  const out: { name: string; shapes: SeriesShape[] }[] = []
  for (const cv of [0.03, 0.1, 0.2])
    for (const length of [30, 100, 500]) {
      out.push({
        name: `cv ${cv * 100} %, ${length} entries, no step, 2 spikes`,
        shapes: [
          { length, cv, steps: [], spikes: [Math.floor(length / 3), Math.floor((2 * length) / 3)] }
        ]
      })
      for (const size of [0.03, 0.05, 0.1, 0.2]) {
        const one = { length, cv, steps: [{ at: Math.floor((2 * length) / 3), size }] }
        const several = {
          length,
          cv,
          steps: [1, 2, 3].map(k => ({
            at: Math.floor((k * length) / 4),
            size: k % 2 ? size : -size
          }))
        }
        out.push({
          name: `cv ${cv * 100} %, ${length} entries, 1 step of ${size * 100} %`,
          shapes: [one]
        })
        if (length >= 100)
          out.push({
            name: `cv ${cv * 100} %, ${length} entries, 3 steps of ±${size * 100} %`,
            shapes: [several]
          })
      }
    }
  return out
}

const load = os
  .loadavg()
  .map(x => x.toFixed(2))
  .join(' ')
console.log(
  `${trials} series per row; Otava ${OTAVA_DEFAULTS.windowLength}-point windows, p ≤ ${OTAVA_DEFAULTS.maxPValue}; load average ${load}`
)
console.log('row | ours: found, false per 100 entries, position error | Otava: the same')
const totals = { ours: blank(), otava: blank() }
function blank(): Score {
  return { steps: 0, found: 0, false: 0, entries: 0, error: 0 }
}
let seed = 1
for (const cell of cells()) {
  const series: { shape: SeriesShape; values: number[] }[] = []
  for (let t = 0; t < trials; t++)
    for (const shape of cell.shapes) series.push({ shape, values: synthetic(shape, seed++) })
  const reference = otava(
    series.map(s => s.values),
    OTAVA_DEFAULTS
  )
  const ours = blank()
  const theirs = blank()
  series.forEach((s, i) => {
    score(
      s.shape,
      changePoints(s.values).map(p => p.index),
      ours
    )
    score(s.shape, reference[i], theirs)
  })
  for (const [k, v] of [
    ['ours', ours],
    ['otava', theirs]
  ] as const)
    for (const f of Object.keys(v) as (keyof Score)[]) totals[k][f] += v[f]
  console.log(`${cell.name} | ${fmt(ours)} | ${fmt(theirs)}`)
}
console.log(`all | ${fmt(totals.ours)} | ${fmt(totals.otava)}`)

const long = synthetic({ length: 10000, cv: 0.05, steps: [{ at: 7000, size: 0.05 }] }, 99)
const times: number[] = []
for (let i = 0; i < 5; i++) {
  const t = performance.now()
  changePoints(long)
  times.push(performance.now() - t)
}
times.sort((a, b) => a - b)
console.log(
  `one detection over 10,000 entries: median ${times[2].toFixed(0)} ms, max ${times[4].toFixed(0)} ms ` +
    `(5 times); load average ${os
      .loadavg()
      .map(x => x.toFixed(2))
      .join(' ')}`
)
