/**
 * How well change points are found on series shaped like this project's histories, by
 * src/trend/ with its default test, with Otava's t-test (the reference port), and by Apache
 * Otava itself on the same series: steps found, false change points per 100 entries, position
 * error, each with its standard error over the series; clean series, and series with spells
 * (4 entries at 3× the level, then back); and the time of one detection on a 10,000-entry series.
 *
 *   npm run bench:change-points -- [series per row (20)] [detector …]
 *
 * Detectors: `default` (ROBUST_DEFAULTS: the rank-sum test, spells set aside), `t-spells`
 * (Otava's t-test on the same series with spells set aside: on clean normal noise, about the
 * most a test of the two sides can find), `t` (the reference port) and `otava`; by default
 * `default t-spells t otava`, each also compared with the last named on the same series. A true
 * step counts as found when a change point lies within 3 entries of it (a spell's entries
 * between them not counted) and moves the level the step's way by between half and twice the
 * step (`FACTOR`); every other change point is false (a spell is no step). Otava runs from
 * scripts/otava-venv.sh's venv, once for all series
 * (OTAVA_PYTHON to override).
 */
import * as os from 'node:os'
import {
  changePoints,
  OTAVA_DEFAULTS,
  ROBUST_DEFAULTS,
  type ChangePointOptions
} from '../src/trend/change-points'
import { forwardChange } from '../src/trend/significance'
import { tally, type Found, type Tally } from './change-point-score'
import { cells, KINDS } from './change-point-cells'
import { otava } from './otava'
import { synthetic, type SeriesShape } from './synthetic-series'

const PORTS: Record<string, ChangePointOptions> = {
  default: ROBUST_DEFAULTS,
  't-spells': { ...OTAVA_DEFAULTS, maxSpell: ROBUST_DEFAULTS.maxSpell },
  t: OTAVA_DEFAULTS
}

/**
 * Each detector's change points on every row's series: the ports row by row, Otava in one
 * process for all of them (its start-up costs more than a row).
 */
function detect(name: string, rows: number[][][]): Found[][][] {
  if (name === 'otava') {
    const flat = otava(rows.flat(), OTAVA_DEFAULTS)
    return rows.map(r => flat.splice(0, r.length))
  }
  const options = PORTS[name]
  if (!options)
    throw new Error(`no detector ${name}: ${[...Object.keys(PORTS), 'otava'].join(', ')}`)
  return rows.map(series =>
    series.map(v =>
      changePoints(v, options).map(p => ({ index: p.index, change: forwardChange(p) }))
    )
  )
}

const load = (): string =>
  os
    .loadavg()
    .map(x => x.toFixed(2))
    .join(' ')

function main(): void {
  const trials = Number(process.argv[2] ?? 20)
  const detectors =
    process.argv.length > 3 ? process.argv.slice(3) : ['default', 't-spells', 't', 'otava']
  console.log(
    `${trials} series per row; Otava ${OTAVA_DEFAULTS.windowLength}-point windows, ` +
      `p ≤ ${OTAVA_DEFAULTS.maxPValue}; default test ${ROBUST_DEFAULTS.significance.test.name}; load average ${load()}; ${new Date().toISOString()}`
  )
  console.log(`row | ${detectors.join(' | ')}: found, false per 100 entries, position error`)
  const totals = new Map<string, Tally>()
  let seed = 1
  let agreeing = 0
  const all = cells()
  const rows = all.map(cell => Array.from({ length: trials }, () => synthetic(cell.shape, seed++)))
  const found = detectors.map(d => detect(d, rows))
  all.forEach((cell, i) => {
    const row = detectors.map((d, k) => {
      const t = tally(cell.shape, found[k][i])
      const key = `${cell.kind}|${d}`
      totals.set(key, totals.has(key) ? totals.get(key)!.plus(t) : t)
      return t.line()
    })
    const [t, o] = [detectors.indexOf('t'), detectors.indexOf('otava')]
    if (t >= 0 && o >= 0 && sameIndexes(found[t][i], found[o][i])) agreeing++
    console.log(`${cell.name} | ${row.join(' | ')}`)
  })
  summarise(detectors, totals)
  if (detectors.includes('t') && detectors.includes('otava'))
    console.log(`the t-test finds Otava's change points on ${agreeing} of ${all.length} rows`)
  timing(detectors)
}

const sameIndexes = (a: Found[][], b: Found[][]): boolean =>
  JSON.stringify(a.map(ps => ps.map(p => p.index))) ===
  JSON.stringify(b.map(ps => ps.map(p => p.index)))

/** Each kind of row over all its series, and each detector against the last one named. */
function summarise(detectors: string[], totals: Map<string, Tally>): void {
  const against = detectors[detectors.length - 1]
  for (const kind of KINDS) {
    const of = (d: string) => totals.get(`${kind}|${d}`)!
    console.log(`all: ${kind} | ${detectors.map(d => of(d).summary()).join(' | ')}`)
    for (const d of detectors.slice(0, -1))
      console.log(`  ${d} − ${against}: ${of(d).difference(of(against))}`)
  }
}

function timing(detectors: string[]): void {
  const long: SeriesShape = { length: 10000, cv: 0.05, steps: [{ at: 7000, size: 0.05 }] }
  const s = synthetic(long, 99)
  for (const name of detectors.filter(d => d in PORTS)) {
    const times: number[] = []
    for (let i = 0; i < 5; i++) {
      const t = performance.now()
      changePoints(s, PORTS[name])
      times.push(performance.now() - t)
    }
    times.sort((a, b) => a - b)
    console.log(
      `one detection over 10,000 entries, ${name}: median ${times[2].toFixed(0)} ms, ` +
        `max ${times[4].toFixed(0)} ms (5 times); load average ${load()}`
    )
  }
}

main()
