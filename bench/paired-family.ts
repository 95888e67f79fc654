/**
 * What a paired run's answers promise for the whole run, simulated through the implemented code
 * (`interimVerdict` at the default looks 6, 9, 14, 21, 30, each case stopped at its first decisive
 * answer; each pair's log ratio N(log(1 + change), sd)):
 *
 * - `family`: a run of 1, 4 or 8 unchanged cases is a false regression when any case is one; its
 *   answers with the level split over the cases (the rule) beside each case at the whole level;
 * - `cost`: one case changed among them: how often it is found, and its pairs;
 * - `power`: the detectable change stated at each look (at the upper bound of the pairs' spread,
 *   and from the pairs' own s.d. as before), and how often a change of that size is found there;
 * - `diagnostics`: six diagnostics correlated with the verdict metric, which chooses the look:
 *   how often a run that changed nothing shows any of them, at the diagnostics' level and at α′.
 *
 *   npm run bench:paired-family -- [--trials 2000] [--sections family,cost,power,diagnostics]
 */
import { parseArgs } from 'node:util'
import { normal, rng } from '../__tests__/fixtures/report/samples'
import { interimVerdict, pairedMetric, SPREAD_CONFIDENCE } from '../src/judge/paired'
import { pairedT } from '../src/inference/paired-t'
import { diagnose, diagnosticLevel } from '../src/judge/multiplicity'
import { lookSchedule, sequentialLevels } from '../src/judge/sequential'
import type { Verdict } from '../src/judge/verdict'
import { detectableShift } from '../src/inference/power'
import { OUTLIER_RULE } from '../src/judge/set-aside'
import { loadAverage } from './machine'

const { values } = parseArgs({
  options: {
    trials: { type: 'string', default: '2000' },
    sections: { type: 'string', default: 'family,cost,power,diagnostics' },
    seed: { type: 'string', default: '1' }
  }
})
const trials = Number(values.trials)
const sections = values.sections.split(',')
const LOOKS = lookSchedule(6, 30)
const ALPHA = 0.05
const u = rng(Number(values.seed))
const z = () => normal(u)

const pct = (n: number, of = trials) => `${((100 * n) / of).toFixed(1)}`
const one = (x: number) => x.toFixed(1)
const asSamples = (d: readonly number[]) => ({
  base: d.map(() => [1]),
  head: d.map(x => [Math.exp(x)])
})

/** One case run look by look on its log ratios, as one of `cases` cases sharing the level. */
function adaptive(diffs: number[], threshold: number, cases: number) {
  for (const [k, n] of LOOKS.entries()) {
    const { base, head } = asSamples(diffs.slice(0, n))
    const { verdict } = interimVerdict('path', base, head, LOOKS, { threshold, cases })
    if (verdict !== 'inconclusive' || k === LOOKS.length - 1) return { verdict, pairs: n }
  }
  throw new Error('unreachable')
}

const drawCase = (change: number, sd: number) =>
  Array.from({ length: LOOKS[LOOKS.length - 1] }, () => Math.log1p(change) + sd * z())

interface RunTally {
  regression: number
  change: number
  noChange: number
  pairs: number
}
const emptyRun = (): RunTally => ({ regression: 0, change: 0, noChange: 0, pairs: 0 })

/** A run's cases, `changed` of them first by `change`: what the run answered. */
function tallyRun(tally: RunTally, verdicts: { verdict: Verdict; pairs: number }[]): void {
  if (verdicts.some(v => v.verdict === 'regression')) tally.regression++
  if (verdicts.some(v => v.verdict === 'regression' || v.verdict === 'improvement')) tally.change++
  if (verdicts.every(v => v.verdict === 'no-change')) tally.noChange++
  tally.pairs += verdicts.reduce((a, v) => a + v.pairs, 0) / verdicts.length
}

const runCell = (t: RunTally) =>
  `${pct(t.regression)} / ${pct(t.change)} / ${pct(t.noChange)} · ${(t.pairs / trials).toFixed(1)}`

function family(): void {
  console.log(
    'Unchanged cases: the run a false regression / any change / every case no change, % · mean pairs a case'
  )
  console.log('')
  console.log(
    '| threshold | s.d. | cases | split over the cases (the rule) | each case at the whole level |'
  )
  console.log('| --: | --: | --: | :-- | :-- |')
  for (const threshold of [0.01, 0.025]) {
    for (const sd of [0.01, 0.02, 0.035]) {
      for (const cases of [1, 4, 8]) {
        const [split, whole] = [emptyRun(), emptyRun()]
        for (let i = 0; i < trials; i++) {
          const runs = Array.from({ length: cases }, () => drawCase(0, sd))
          tallyRun(
            split,
            runs.map(d => adaptive(d, threshold, cases))
          )
          tallyRun(
            whole,
            runs.map(d => adaptive(d, threshold, 1))
          )
        }
        console.log(
          `| ${one(threshold * 100)} % | ${one(sd * 100)} % | ${cases} | ${runCell(split)} | ${runCell(whole)} |`
        )
      }
    }
  }
  console.log('')
}

function cost(): void {
  console.log('One case changed, the others not: that case a regression, % · its mean pairs')
  console.log('')
  console.log('| threshold | change | s.d. | cases | split | whole level |')
  console.log('| --: | --: | --: | --: | :-- | :-- |')
  for (const [threshold, change] of [
    [0.025, 0.04],
    [0.01, 0.02]
  ]) {
    for (const sd of [0.02, 0.035]) {
      for (const cases of [1, 4, 8]) {
        const found = { split: 0, whole: 0, splitPairs: 0, wholePairs: 0 }
        for (let i = 0; i < trials; i++) {
          const d = drawCase(change, sd)
          const [s, w] = [adaptive(d, threshold, cases), adaptive(d, threshold, 1)]
          found.split += s.verdict === 'regression' ? 1 : 0
          found.whole += w.verdict === 'regression' ? 1 : 0
          found.splitPairs += s.pairs
          found.wholePairs += w.pairs
        }
        console.log(
          `| ${one(threshold * 100)} % | +${one(change * 100)} % | ${one(sd * 100)} % | ${cases} | ` +
            `${pct(found.split)} · ${(found.splitPairs / trials).toFixed(1)} | ` +
            `${pct(found.whole)} · ${(found.wholePairs / trials).toFixed(1)} |`
        )
      }
    }
  }
  console.log('')
}

/** Share of runs of `n` pairs, true log change `shift`, whose interval at `level` lies above 0. */
function found(n: number, shift: number, levels: ReturnType<typeof sequentialLevels>): boolean {
  const { base, head } = asSamples(Array.from({ length: n }, () => shift + z()))
  return pairedMetric('path', base, head, 1, { levels }).ci[0] > 0
}

function power(): void {
  console.log(
    `The detectable change at each look (s.d. 1, scale-free): how often a change of the stated size is found there, % (spread at its upper ${SPREAD_CONFIDENCE * 100} % bound / the pairs' own s.d.)`
  )
  console.log('')
  console.log(`| cases | α′ | ${LOOKS.map(n => `${n} pairs`).join(' | ')} |`)
  console.log(`| --: | --: | ${LOOKS.map(() => '--:').join(' | ')} |`)
  for (const cases of [1, 4, 8]) {
    const levels = sequentialLevels(LOOKS, ALPHA, cases)
    const cells = LOOKS.map(n => {
      let [bound, own] = [0, 0]
      for (let i = 0; i < trials; i++) {
        const d = Array.from({ length: n }, () => z())
        const { base, head } = asSamples(d)
        const stated = Math.log1p(pairedMetric('path', base, head, 1, { levels }).detectable)
        const r = pairedT(d, OUTLIER_RULE)
        bound += found(n, stated, levels) ? 1 : 0
        own += found(n, detectableShift(r.sd, r.kept, levels.test), levels) ? 1 : 0
      }
      return `${pct(bound)} / ${pct(own)}`
    })
    console.log(`| ${cases} | ${levels.test.toFixed(4)} | ${cells.join(' | ')} |`)
  }
  console.log('')
}

const DIAGNOSTICS = 6

/**
 * One unchanged case with diagnostics correlated `rho` with its verdict metric, as one of `cases`
 * cases (the rule) or at the whole level with its diagnostics read at α′ (before): any shown?
 */
function diagnosticsShown(draws: number[][], cases: number, rule: boolean): boolean {
  const [path, ...parts] = draws
  const share = rule ? cases : 1
  const stop = adaptive(path, 0.025, share).pairs
  const levels = sequentialLevels(LOOKS, ALPHA, share)
  const gate = pairedMetric('path', ...pair(path.slice(0, stop)), 0.025, { levels, gating: true })
  const metrics = [
    gate,
    ...parts.map((d, j) =>
      pairedMetric(`d${j}`, ...pair(d.slice(0, stop)), 0.025, { levels, setAside: gate.setAside })
    )
  ]
  const level = rule ? diagnosticLevel(levels.test, ALPHA / cases, LOOKS.length) : levels.test
  return diagnose(metrics, level).some(m => m.evidence !== null)
}

/** A verdict metric's log ratios and its diagnostics', each correlated `rho` with it. */
function drawDiagnosed(sd: number, rho: number): number[][] {
  const path = drawCase(0, sd)
  const parts = Array.from({ length: DIAGNOSTICS }, () =>
    path.map(x => rho * x + sd * Math.sqrt(1 - rho ** 2) * z())
  )
  return [path, ...parts]
}

const pair = (d: readonly number[]): [number[][], number[][]] => {
  const { base, head } = asSamples(d)
  return [base, head]
}

function diagnostics(): void {
  console.log(
    `Unchanged cases, ${DIAGNOSTICS} diagnostics each correlated ρ with the verdict metric (threshold 2.5 %): any diagnostic shown, %`
  )
  console.log('')
  console.log(
    '| s.d. | ρ | cases | at the diagnostics’ level (the rule) | each case at the whole level, read at α′ (before) |'
  )
  console.log('| --: | --: | --: | --: | --: |')
  for (const sd of [0.02, 0.035]) {
    for (const rho of [0, 0.5, 0.9]) {
      for (const cases of [1, 4]) {
        let [now, before] = [0, 0]
        for (let i = 0; i < trials; i++) {
          const runs = Array.from({ length: cases }, () => drawDiagnosed(sd, rho))
          now += runs.some(d => diagnosticsShown(d, cases, true)) ? 1 : 0
          before += runs.some(d => diagnosticsShown(d, cases, false)) ? 1 : 0
        }
        console.log(`| ${one(sd * 100)} % | ${rho} | ${cases} | ${pct(now)} | ${pct(before)} |`)
      }
    }
  }
  console.log('')
}

const started = Date.now()
console.log(`looks ${LOOKS.join(', ')}, ${trials} runs a row; load average ${loadAverage()}`)
console.log('')
const SECTIONS: Record<string, () => void> = { family, cost, power, diagnostics }
for (const s of sections) SECTIONS[s]()
console.log(`${((Date.now() - started) / 1000).toFixed(0)} s; load average ${loadAverage()}`)
