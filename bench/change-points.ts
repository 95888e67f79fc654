/**
 * How well change points are found on series shaped like this project's histories, by
 * src/trend/ with the rank test (the default), with Otava's t-test (the reference), and by Apache
 * Otava itself on the same series: detection rate, false change points per 100 entries, position
 * error; clean series, and series with spells (4 entries at 3× the level, then back); and the
 * time of one detection on a 10,000-entry series.
 *
 *   npm run bench:change-points -- [trials per cell (20)]
 *
 * A true step counts as found when a change point lies within 3 entries of it (a spell's entries
 * between them not counted); every other change point is false (a spell is no step). Otava runs from scripts/otava-venv.sh's venv (OTAVA_PYTHON
 * to override).
 */
import { execFileSync } from 'node:child_process'
import * as os from 'node:os'
import * as path from 'node:path'
import {
  changePoints,
  OTAVA_DEFAULTS,
  ROBUST_DEFAULTS,
  type ChangePointOptions
} from '../src/trend/change-points'
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

/**
 * Entries from a point to a step, not counting a spell's entries between them: a spell is no
 * level, so a point at either end of a spell just before a step is at the step.
 */
function distance(shape: SeriesShape, i: number, at: number): number {
  const [lo, hi] = [Math.min(i, at), Math.max(i, at)]
  let spelled = 0
  for (const sp of shape.spells ?? [])
    spelled += Math.max(0, Math.min(hi, sp.at + sp.length) - Math.max(lo, sp.at))
  return hi - lo - spelled
}

function score(shape: SeriesShape, found: number[], s: Score): void {
  const unmatched = new Set(found)
  s.entries += shape.length
  for (const step of shape.steps) {
    s.steps++
    const away = (i: number) => distance(shape, i, step.at)
    const near = found
      .filter(i => unmatched.has(i) && away(i) <= TOLERANCE)
      .sort((a, b) => away(a) - away(b))[0]
    if (near === undefined) continue
    s.found++
    s.error += away(near)
    unmatched.delete(near)
  }
  s.false += unmatched.size
}

const fmt = (s: Score): string =>
  `${s.steps ? ((100 * s.found) / s.steps).toFixed(0).padStart(3) + ' %' : '   –'}  ` +
  `${((100 * s.false) / s.entries).toFixed(2).padStart(5)}  ` +
  `${s.found ? (s.error / s.found).toFixed(2) : '–'}`

/** Spells of 4 entries at 3× the level, as case 1's legacy history has (at ~13–20×). */
const spell = (at: number) => ({ at, length: 4, factor: 3 })

function cleanCells(cv: number, length: number): Cell[] {
  const out: Cell[] = [
    {
      name: `cv ${cv * 100} %, ${length} entries, no step, 2 spikes`,
      shape: {
        length,
        cv,
        steps: [],
        spikes: [Math.floor(length / 3), Math.floor((2 * length) / 3)]
      }
    }
  ]
  for (const size of [0.03, 0.05, 0.1, 0.2]) {
    out.push({
      name: `cv ${cv * 100} %, ${length} entries, 1 step of ${size * 100} %`,
      shape: { length, cv, steps: [{ at: Math.floor((2 * length) / 3), size }] }
    })
    if (length >= 100)
      out.push({
        name: `cv ${cv * 100} %, ${length} entries, 3 steps of ±${size * 100} %`,
        shape: {
          length,
          cv,
          steps: [1, 2, 3].map(k => ({
            at: Math.floor((k * length) / 4),
            size: k % 2 ? size : -size
          }))
        }
      })
  }
  return out
}

function spellCells(cv: number, length: number): Cell[] {
  const third = Math.floor(length / 3)
  const step = Math.floor((2 * length) / 3)
  const out: Cell[] = [
    {
      name: `cv ${cv * 100} %, ${length} entries, no step, 2 spells`,
      shape: { length, cv, steps: [], spells: [spell(third), spell(step)] },
      kind: 'spell elsewhere'
    }
  ]
  for (const size of [0.03, 0.05, 0.1, 0.2])
    out.push(
      {
        name: `cv ${cv * 100} %, ${length} entries, 1 step of ${size * 100} %, a spell before`,
        shape: { length, cv, steps: [{ at: step, size }], spells: [spell(third)] },
        kind: 'spell elsewhere'
      },
      {
        name: `cv ${cv * 100} %, ${length} entries, 1 step of ${size * 100} % just after a spell`,
        shape: { length, cv, steps: [{ at: step, size }], spells: [spell(step - 4)] },
        kind: 'spell just before the step'
      }
    )
  return out
}

interface Cell {
  name: string
  shape: SeriesShape
  /** Clean, a spell away from any step, or a spell just before the step (the legacy shape). */
  kind?: Kind
}

const KINDS = ['clean', 'spell elsewhere', 'spell just before the step'] as const
type Kind = (typeof KINDS)[number]

function cells(): Cell[] {
  const out: Cell[] = []
  for (const cv of [0.03, 0.1, 0.2])
    for (const length of [30, 100, 500]) out.push(...cleanCells(cv, length))
  for (const cv of [0.03, 0.1, 0.2])
    for (const length of [30, 100, 500]) out.push(...spellCells(cv, length))
  return out
}

const load = os
  .loadavg()
  .map(x => x.toFixed(2))
  .join(' ')
console.log(
  `${trials} series per row; Otava ${OTAVA_DEFAULTS.windowLength}-point windows, p ≤ ${OTAVA_DEFAULTS.maxPValue}; load average ${load}`
)
console.log(
  'row | rank test (default) | t-test (reference) | Otava: found, false per 100 entries, position error'
)
const detectors = ['rank', 't', 'otava'] as const
type Detector = (typeof detectors)[number]
const blankAll = () => ({ rank: blank(), t: blank(), otava: blank() })
const totals = Object.fromEntries(KINDS.map(k => [k, blankAll()])) as Record<
  Kind,
  ReturnType<typeof blankAll>
>
function blank(): Score {
  return { steps: 0, found: 0, false: 0, entries: 0, error: 0 }
}
let seed = 1
let agreeing = 0
let rows = 0
for (const cell of cells()) {
  const series = Array.from({ length: trials }, () => synthetic(cell.shape, seed++))
  const found: Record<Detector, number[][]> = {
    rank: series.map(v => changePoints(v, ROBUST_DEFAULTS).map(p => p.index)),
    t: series.map(v => changePoints(v, OTAVA_DEFAULTS).map(p => p.index)),
    otava: otava(series, OTAVA_DEFAULTS)
  }
  const row = blankAll()
  for (const d of detectors) found[d].forEach(f => score(cell.shape, f, row[d]))
  const total = totals[cell.kind ?? 'clean']
  for (const d of detectors)
    for (const f of Object.keys(row[d]) as (keyof Score)[]) total[d][f] += row[d][f]
  rows++
  if (JSON.stringify(found.t) === JSON.stringify(found.otava)) agreeing++
  console.log(`${cell.name} | ${detectors.map(d => fmt(row[d])).join(' | ')}`)
}
for (const kind of KINDS)
  console.log(`all: ${kind} | ${detectors.map(d => fmt(totals[kind][d])).join(' | ')}`)
console.log(`the t-test finds Otava's change points on ${agreeing} of ${rows} rows`)

const long = synthetic({ length: 10000, cv: 0.05, steps: [{ at: 7000, size: 0.05 }] }, 99)
for (const [name, options] of [
  ['rank test', ROBUST_DEFAULTS],
  ['t-test', OTAVA_DEFAULTS]
] as const) {
  const times: number[] = []
  for (let i = 0; i < 5; i++) {
    const t = performance.now()
    changePoints(long, options)
    times.push(performance.now() - t)
  }
  times.sort((a, b) => a - b)
  console.log(
    `one detection over 10,000 entries, ${name}: median ${times[2].toFixed(0)} ms, ` +
      `max ${times[4].toFixed(0)} ms (5 times); load average ${os
        .loadavg()
        .map(x => x.toFixed(2))
        .join(' ')}`
  )
}
