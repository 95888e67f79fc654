/**
 * Where the default detection (src/trend/, ROBUST_DEFAULTS) places a step, beside where Apache
 * Otava 0.8.0 places it, on seeded series none of the project's tests or other benches use:
 * 40 entries at a level of 100 with normal noise of CV 1–5 %, one step of ±2 … ±10 % at
 * entry 20 or none, and the same with a spell (4 entries at 3× the level) away from the step,
 * just before it, or at the start (2 entries, too near the start for the spell rule to set
 * aside: only the search on ranks keeps it from hiding the step).
 *
 *   npm run bench:change-point-placement -- [series per setting (200)]
 *
 * Per kind of setting: the steps each finds (bench/change-point-score.ts's rule: within 3
 * entries, telling the step), for the steps both find how far the detection's point lies from
 * Otava's (0, 1, 2, 3 or more entries; the share within one), each one's mean distance from the
 * true step, and false points per 100 entries, each rate with its standard error over the series.
 */
import * as os from 'node:os'
import { changePoints, OTAVA_DEFAULTS, ROBUST_DEFAULTS } from '../src/trend/change-points'
import { forwardChange } from '../src/trend/significance'
import { finder, tally, type Found, type Tally } from './change-point-score'
import { otava } from './otava'
import { synthetic, type SeriesShape } from './synthetic-series'

const LENGTH = 40
const AT = 20
/** Seeds from here on: far from those of the tests and of bench/change-points.ts. */
const FIRST_SEED = 5_000_000

type Kind = 'steps' | 'flat' | 'spell elsewhere' | 'spell just before' | 'spell at the start'

interface Setting {
  kind: Kind
  shape: SeriesShape
}

const SPELLS: Record<Exclude<Kind, 'steps' | 'flat'>, { at: number; length: number }> = {
  'spell elsewhere': { at: 8, length: 4 },
  'spell just before': { at: AT - 4, length: 4 },
  'spell at the start': { at: 1, length: 2 }
}

function settings(): Setting[] {
  const out: Setting[] = []
  const shape = (cv: number, size: number, spell?: { at: number; length: number }) => ({
    length: LENGTH,
    cv,
    steps: size === 0 ? [] : [{ at: AT, size }],
    spells: spell ? [{ ...spell, factor: 3 }] : []
  })
  for (const cv of [0.01, 0.02, 0.03, 0.04, 0.05]) {
    out.push({ kind: 'flat', shape: shape(cv, 0) })
    for (const size of [0.02, 0.04, 0.06, 0.08, 0.1])
      out.push(
        { kind: 'steps', shape: shape(cv, size) },
        { kind: 'steps', shape: shape(cv, -size) }
      )
  }
  for (const [kind, spell] of Object.entries(SPELLS) as [Kind, { at: number; length: number }][])
    for (const cv of [0.01, 0.03, 0.05])
      for (const size of [0, 0.04, -0.06, 0.1]) out.push({ kind, shape: shape(cv, size, spell) })
  return out
}

/** Where the two detections place the steps both find: |ours − Otava's| counted 0, 1, 2, ≥ 3. */
class Placement {
  readonly apart = [0, 0, 0, 0]
  ours = 0
  theirs = 0

  add(shape: SeriesShape, ours: readonly Found[], theirs: readonly Found[]): void {
    for (const step of shape.steps) {
      const [a, b] = [finder(shape, ours, step), finder(shape, theirs, step)]
      if (!a || !b) continue
      this.apart[Math.min(3, Math.abs(a.index - b.index))]++
      this.ours += Math.abs(a.index - step.at)
      this.theirs += Math.abs(b.index - step.at)
    }
  }

  line(): string {
    const both = this.apart.reduce((x, y) => x + y, 0)
    if (both === 0) return '– | – | – | –'
    const p = (this.apart[0] + this.apart[1]) / both
    const se = Math.sqrt((p * (1 - p)) / both)
    return (
      `${both} | ${this.apart.join(' / ')} | **${(100 * p).toFixed(1)} % ± ${(100 * se).toFixed(1)}** | ` +
      `${(this.ours / both).toFixed(2)} / ${(this.theirs / both).toFixed(2)}`
    )
  }
}

interface Row {
  ours: Tally
  theirs: Tally
  placement: Placement
}

/** The rows a setting counts in: its kind, and for the clean steps also its noise. */
const labels = ({ kind, shape }: Setting): string[] =>
  kind === 'steps' ? [`steps, noise ${shape.cv * 100} %`, 'steps, all'] : [kind]

function added(row: Row | undefined, shape: SeriesShape, ours: Found[][], theirs: Found[][]): Row {
  const placement = row?.placement ?? new Placement()
  ours.forEach((o, k) => placement.add(shape, o, theirs[k]))
  const [a, b] = [tally(shape, ours), tally(shape, theirs)]
  return { ours: row ? row.ours.plus(a) : a, theirs: row ? row.theirs.plus(b) : b, placement }
}

const rate = (t: Tally): { found: string; false: string } => {
  const r = t.rates()
  return {
    found: r.steps ? `${(100 * r.found.r).toFixed(1)} % ± ${(100 * r.found.se).toFixed(1)}` : '–',
    false: `${r.false.r.toFixed(3)} ± ${r.false.se.toFixed(3)}`
  }
}

const load = (): string =>
  os
    .loadavg()
    .map(x => x.toFixed(2))
    .join(' ')

function main(): void {
  const trials = Number(process.argv[2] ?? 200)
  const all = settings()
  let seed = FIRST_SEED
  const series = all.map(s => Array.from({ length: trials }, () => synthetic(s.shape, seed++)))
  console.log(
    `${trials} series per setting, ${all.length} settings; Otava ${OTAVA_DEFAULTS.windowLength}-point ` +
      `windows, p ≤ ${OTAVA_DEFAULTS.maxPValue}; load average ${load()}; ${new Date().toISOString()}`
  )
  const theirs = otava(series.flat(), OTAVA_DEFAULTS)
  const totals = new Map<string, Row>()
  all.forEach((setting, i) => {
    const ours = series[i].map(v =>
      changePoints(v, ROBUST_DEFAULTS).map(p => ({ index: p.index, change: forwardChange(p) }))
    )
    const otavas = theirs.splice(0, trials)
    for (const label of labels(setting))
      totals.set(label, added(totals.get(label), setting.shape, ours, otavas))
  })
  console.log(
    '| series | steps | found: detection / Otava | both found | apart 0 / 1 / 2 / ≥3 entries | ' +
      'within one of Otava | mean distance from the step: detection / Otava | ' +
      'false per 100 entries: detection / Otava |'
  )
  console.log('| :-- | --: | :-- | --: | :-- | :-- | :-- | :-- |')
  // The clean steps by noise, then all of them, then the other kinds as made.
  const rank = (label: string) =>
    label.startsWith('steps, noise') ? 0 : label === 'steps, all' ? 1 : 2
  for (const [label, t] of [...totals].sort((a, b) => rank(a[0]) - rank(b[0]))) {
    const [o, v] = [rate(t.ours), rate(t.theirs)]
    console.log(
      `| ${label} | ${t.ours.rates().steps} | ${o.found} / ${v.found} | ${t.placement.line()} | ` +
        `${o.false} / ${v.false} |`
    )
  }
  console.log(`load average ${load()}; ${new Date().toISOString()}`)
}

main()
