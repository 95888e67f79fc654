/**
 * The paired verdict's statistics, simulated through the implemented code (`interimVerdict` at the
 * default looks 6, 9, 14, 21, 30, stopped at the first decisive answer): each pair's log ratio is
 * N(log(1 + change), sd), some pairs then moved by a stall. The new rule (pairs that fail Rosner's
 * outlier test set aside, levels calibrated for it, "no change" from the equivalence interval)
 * beside the old one (Student's t on every pair, one interval at α′ for every answer).
 *
 *   npm run bench:paired-rule -- [--trials 2000] [--threshold 2.5%] [--sds 2,3.5] [--seed 1]
 *
 * Rows: true change × the pairs' spread × what went wrong. "one 3×": the third pair's median ratio
 * multiplied or divided by 3 (a stall covering most of one side's run, either side at random);
 * "one 1.3×" likewise; "5 % 1.3×" / "5 % 3×": every pair so moved with probability 5 %.
 */
import { parseArgs } from 'node:util'
import { normal, rng } from '../__tests__/fixtures/report/samples'
import { interimVerdict, pairedMetric } from '../src/judge/paired'
import { lookSchedule, sequentialLevel } from '../src/judge/sequential'
import type { Verdict } from '../src/judge/verdict'
import { loadAverage } from './machine'

const { values } = parseArgs({
  options: {
    trials: { type: 'string', default: '2000' },
    threshold: { type: 'string', default: '2.5%' },
    sds: { type: 'string', default: '2,3.5' },
    changes: { type: 'string', default: '0,2,4,8' },
    seed: { type: 'string', default: '1' }
  }
})
const trials = Number(values.trials)
const threshold = Number(values.threshold.replace('%', '')) / 100
const percents = (s: string) => s.split(',').map(x => Number(x) / 100)
const LOOKS = lookSchedule(6, 30)

interface Stall {
  name: string
  /** Which pairs move (by index, given a uniform draw), and by what factor. */
  moved: (i: number, u: () => number) => boolean
  factor: number
}

const STALLS: Stall[] = [
  { name: 'clean', moved: () => false, factor: 1 },
  { name: 'one 3×', moved: i => i === 2, factor: 3 },
  { name: 'one 1.3×', moved: i => i === 2, factor: 1.3 },
  { name: '5 % 3×', moved: (_, u) => u() < 0.05, factor: 3 },
  { name: '5 % 1.3×', moved: (_, u) => u() < 0.05, factor: 1.3 }
]

/** One run's log ratios, all 30 pairs drawn up front (a look reads the first n). */
function drawPairs(change: number, sd: number, stall: Stall, draw: () => number, u: () => number) {
  return Array.from({ length: LOOKS[LOOKS.length - 1] }, (_, i) => {
    const d = Math.log1p(change) + sd * draw()
    if (!stall.moved(i, u)) return d
    return d + (u() < 0.5 ? 1 : -1) * Math.log(stall.factor)
  })
}

type Judge = (base: number[][], head: number[][]) => Verdict

const NEW: Judge = (base, head) => interimVerdict('path', base, head, LOOKS, { threshold }).verdict
const OLD_LEVEL = sequentialLevel(LOOKS, 0.05, null)
const OLD: Judge = (base, head) =>
  pairedMetric('path', base, head, threshold, {
    rule: null,
    levels: { test: OLD_LEVEL, equivalence: OLD_LEVEL }
  }).verdict

function adaptive(diffs: number[], judge: Judge): { verdict: Verdict; pairs: number } {
  for (const [k, n] of LOOKS.entries()) {
    const d = diffs.slice(0, n)
    const verdict = judge(
      d.map(() => [1]),
      d.map(x => [Math.exp(x)])
    )
    if (verdict !== 'inconclusive' || k === LOOKS.length - 1) return { verdict, pairs: n }
  }
  throw new Error('unreachable')
}

type Tally = Record<Verdict, number> & { pairs: number }
const empty = (): Tally => ({
  regression: 0,
  improvement: 0,
  'no-change': 0,
  inconclusive: 0,
  pairs: 0
})

const pct = (n: number) => `${((100 * n) / trials).toFixed(1)}`
const cell = (t: Tally) =>
  `${pct(t.regression)} / ${pct(t.improvement)} / ${pct(t['no-change'])} / ${pct(t.inconclusive)} · ${(t.pairs / trials).toFixed(1)}`

const started = Date.now()
const seed = Number(values.seed)
const u = rng(seed)
console.log(
  `threshold ${values.threshold}, looks ${LOOKS.join(', ')}, ${trials} runs a row; old α′ ${OLD_LEVEL.toFixed(4)}; load average ${loadAverage()}`
)
console.log('')
console.log(
  '| change | s.d. | pairs moved | old: regression / improvement / no change / inconclusive, % · mean pairs | new: the same |'
)
console.log('| --: | --: | :-- | :-- | :-- |')
for (const change of percents(values.changes)) {
  for (const sd of percents(values.sds)) {
    for (const stall of STALLS) {
      const [old, now] = [empty(), empty()]
      for (let i = 0; i < trials; i++) {
        const diffs = drawPairs(change, sd, stall, () => normal(u), u)
        for (const [tally, judge] of [
          [old, OLD],
          [now, NEW]
        ] as const) {
          const r = adaptive(diffs, judge)
          tally[r.verdict]++
          tally.pairs += r.pairs
        }
      }
      const c = `${change >= 0 ? '+' : ''}${(change * 100).toFixed(0)} %`
      console.log(
        `| ${c} | ${(sd * 100).toFixed(1)} % | ${stall.name} | ${cell(old)} | ${cell(now)} |`
      )
    }
  }
}
console.log('')
console.log(`${((Date.now() - started) / 1000).toFixed(0)} s; load average ${loadAverage()}`)
