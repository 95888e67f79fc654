/**
 * Where a pair's spread comes from, read off saved paired runs. For each case of each run
 * directory (a `run --baseline paired --out-dir DIR`: DIR/result.json is the head's, DIR/base/ the
 * base's), the verdict metric's per-request samples of each pair are reduced to one log ratio by
 * each estimator, over the first `n` measured requests of each side, after `skip` more requests of
 * warm-up; per setting it prints the pairs' log-ratio s.d. (all pairs, and the pairs Rosner's rule
 * keeps), the median's own sampling error (a bootstrap of each side's requests), and, by resampling
 * the pairs through the paired rule at the default looks (4 cases, `--threshold`), how often
 * they are called "no change" by look 9 and by look 30, how often a change (regression or
 * improvement), and the pairs and seconds a decision takes (seconds from `--pair-overhead` plus
 * the measured requests at `--rate`). Identical copies give the false alarms; `--shift-ms` adds
 * that much to every head request, a known slowdown, and the change column is then the power.
 *
 *   npm run bench:pair-spread -- DIR [DIR …] [--threshold 0.025] [--cases 4] [--pair-overhead 9]
 *     [--sizes 30,60,120] [--skips=-30,0] [--estimators median,trim20] [--shift-ms 0.5]
 */
import * as fs from 'node:fs'
import * as path from 'node:path'
import { parseArgs } from 'node:util'
import { readResult } from '../src/pipeline/result-file'
import { interimSpread, type PairEstimator, PAIR_ESTIMATORS } from './pair-estimators'
import { decideIdentical } from './pair-decision'
import { loadAverage } from './machine'

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    threshold: { type: 'string', default: '0.025' },
    cases: { type: 'string', default: '4' },
    rate: { type: 'string', default: '5' },
    /** Seconds a pair costs besides its measured requests: starts, the clients' start, warm-up. */
    'pair-overhead': { type: 'string', default: '9' },
    metric: { type: 'string', default: 'path' },
    'shift-ms': { type: 'string', default: '0' },
    sizes: { type: 'string', default: '30,60,120' },
    skips: { type: 'string', default: '0' },
    estimators: { type: 'string', default: PAIR_ESTIMATORS.join(',') }
  }
})

interface Pair {
  base: number[]
  head: number[]
  /** The warm-up requests of each side, in order: for a shorter warm-up, their tail is measured. */
  baseWarm: number[]
  headWarm: number[]
}

/** Every pair of every case of a run directory, in order, of `metric`. */
function pairsOf(dir: string, metric: string): Map<string, Pair[]> {
  const head = readResult(path.join(dir, 'result.json'))
  const base = readResult(path.join(dir, 'base', 'result.json'))
  const out = new Map<string, Pair[]>()
  head.cases.forEach((hc, c) => {
    const bc = base.cases[c]
    const runs = (rs: typeof hc.runs, warm: boolean) =>
      rs.filter(r => r.warmup === warm).map(r => r.samples[metric] ?? [])
    const [bm, hm, bw, hw] = [
      runs(bc.runs, false),
      runs(hc.runs, false),
      runs(bc.runs, true),
      runs(hc.runs, true)
    ]
    out.set(
      `${path.basename(dir)} case ${hc.id}`,
      bm.map((b, i) => ({ base: b, head: hm[i], baseWarm: bw[i] ?? [], headWarm: hw[i] ?? [] }))
    )
  })
  return out
}

/** The pair's requests as one setting measures them: `skip` more of warm-up (negative: less), then `n`. */
function window(p: Pair, n: number, skip: number): { base: number[]; head: number[] } {
  const side = (measured: number[], warm: number[]) =>
    (skip < 0 ? [...warm.slice(warm.length + skip), ...measured] : measured.slice(skip)).slice(0, n)
  return { base: side(p.base, p.baseWarm), head: side(p.head, p.headWarm).map(x => x + shift) }
}

const shift = Number(values['shift-ms']) / 1000

function main(): void {
  if (!positionals.length) throw new Error('name at least one paired run directory')
  const threshold = Number(values.threshold)
  const cases = Number(values.cases)
  const rate = Number(values.rate)
  const overhead = Number(values['pair-overhead'])
  const sizes = values.sizes!.split(',').map(Number)
  const skips = values.skips!.split(',').map(Number)
  const estimators = values.estimators!.split(',') as PairEstimator[]
  const groups = new Map<string, Pair[]>()
  for (const dir of positionals) {
    if (!fs.existsSync(path.join(dir, 'base')))
      throw new Error(`${dir}: no base/ beside result.json`)
    for (const [k, v] of pairsOf(dir, values.metric!)) groups.set(k, v)
  }
  console.log(
    `pair spread of ${values.metric} (threshold ${threshold * 100} %, ${cases} cases, ` +
      `head + ${values['shift-ms']} ms a request, ` +
      `a pair ${overhead} s + requests at ${rate}/s); load average now: ${loadAverage()}`
  )
  for (const [name, pairs] of groups) {
    console.log(`\n${name}: ${pairs.length} pairs`)
    console.log(
      '| estimator | requests | skip | pair s.d. | kept s.d. | requests’ own s.e. | no change by 9 | by 30 | change | pairs (median) | seconds (median) |'
    )
    console.log('| :-- | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: |')
    for (const skip of skips) {
      for (const n of sizes) {
        if (pairs.some(p => window(p, n, skip).base.length < n)) continue
        for (const e of estimators) {
          const windows = pairs.map(p => window(p, n, skip))
          const s = interimSpread(windows, e)
          const d = decideIdentical(s.diffs, { threshold, cases })
          const secs = d.medianPairs * (overhead + n / rate)
          console.log(
            `| ${e} | ${n} | ${skip} | ${pct(s.sd)} | ${pct(s.keptSd)} | ` +
              `${s.ownSe === null ? '–' : pct(s.ownSe)} | ${pctInt(d.by[9])} | ${pctInt(d.by[30])} | ${pctInt(d.changed)} | ` +
              `${d.medianPairs} | ${Math.round(secs)} |`
          )
        }
      }
    }
  }
}

const pct = (x: number): string => `${(x * 100).toFixed(2)} %`
const pctInt = (x: number): string => `${Math.round(x * 100)} %`

main()
