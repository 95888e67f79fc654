/**
 * How much do the published figures move between separate suite runs? Each suite starts its
 * topologies afresh (as every CI job does) and runs the minimal-load and burst profiles; the
 * script prints each suite's headline figures (and, beside the published best run, the median over
 * the runs it replaced), their coefficient of variation across suites, the machine's load average
 * around every suite, and whether the first measured run is slower than the others (the warm-up's
 * job). Without `--profiles` including burst the burst column reads NaN. `--busy` keeps one core busy with another process throughout.
 *
 *   npm run bench:noise -- [--suites 5] [--cases 1,3] [--busy] [--engine local] [run flags…]
 */
import { spawn } from 'node:child_process'
import { parseArgs } from 'node:util'
import { DEFAULTS, parseInputs, type RawInputs } from '../src/config/inputs'
import { median } from '../src/stats/sample'
import type { CaseResult } from '../src/result/schema'
import { warningsOnly as quiet } from '../src/log'
import { runSuite } from '../src/pipeline'
import { cv, loadAverage, mean } from './machine'

const { values } = parseArgs({
  options: {
    suites: { type: 'string', default: '5' },
    busy: { type: 'boolean', default: false },
    ...Object.fromEntries(Object.keys(DEFAULTS).map(k => [k, { type: 'string' as const }]))
  }
})
const { suites, busy, ...flags } = values

const ms = (s: number): string => (s * 1000).toFixed(2).padStart(8)

interface Row {
  key: string
  latency: number
  latencyBest: number
  path: number
  pathBest: number
  roundtrip: number
  first: number
}

/** The estimator the published figure replaced: the median over the runs of the run medians. */
const medianRunMedian = (c: CaseResult, metric: string): number =>
  median(c.runs.filter(r => !r.warmup).map(r => r.summaries[metric].median))

/** The first measured run's median headline over the median of the later runs' medians. */
function firstRunRatio(c: CaseResult): number {
  const [first, ...rest] = c.runs.filter(r => !r.warmup).map(r => r.summaries[c.headline].median)
  return first / median(rest)
}

async function main(): Promise<void> {
  const inputs = parseInputs({
    cases: '1,3',
    profiles: 'minimal,burst',
    'out-dir': 'out/bench-noise',
    ...(flags as Partial<RawInputs>)
  })
  // A busy loop in its own process, pinned nowhere: it takes one of the machine's cores.
  const hog = busy ? spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }) : null
  const rows: Row[] = []
  try {
    console.log(
      `${Number(suites)} separate suites, cases ${inputs.cases.join(',')}, profiles ${inputs.profiles.join(',')}, ` +
        `${inputs.engine} engine, ${inputs['warmup-requests']} warm-up requests, ${inputs.runs} runs of ${inputs.requests}` +
        `${busy ? ', one core kept busy by another process' : ''}; load average before: ${loadAverage()}`
    )
    console.log(
      'suite  case  latency: median run  best run (published)  path: median run  best run  burst roundtrip  first/other  load average after'
    )
    for (let s = 1; s <= Number(suites); s++) {
      const result = await runSuite(inputs, { log: quiet })
      for (const id of inputs.cases) {
        const minimal = result.cases.find(c => c.id === id && c.profile.kind === 'minimal')!
        const burst = result.cases.find(c => c.id === id && c.profile.kind === 'burst')
        const row: Row = {
          key: id,
          latency: medianRunMedian(minimal, 'latency'),
          latencyBest: minimal.best.latency,
          path: medianRunMedian(minimal, 'path'),
          pathBest: minimal.best.path,
          roundtrip: burst ? burst.best.roundtrip : NaN,
          first: firstRunRatio(minimal)
        }
        rows.push(row)
        console.log(
          `${String(s).padStart(5)}  ${id.padStart(4)}  ${ms(row.latency).padStart(19)}  ${ms(row.latencyBest).padStart(20)}  ` +
            `${ms(row.path).padStart(16)}  ${ms(row.pathBest).padStart(8)}  ${ms(row.roundtrip).padStart(15)}  ` +
            `${row.first.toFixed(3).padStart(11)}  ${loadAverage()}`
        )
      }
    }
  } finally {
    hog?.kill('SIGKILL')
  }
  console.log('\ncoefficient of variation across suites (sample sd / mean):')
  const pct = (xs: number[]): string => `${(cv(xs) * 100).toFixed(1)} %`
  for (const id of inputs.cases) {
    const of = rows.filter(r => r.key === id)
    const col = (k: keyof Row): string => pct(of.map(r => r[k] as number))
    console.log(
      `case ${id}: minimal latency, published (best run) ${col('latencyBest')} (mean ${ms(mean(of.map(r => r.latencyBest)))} ms; median run ${col('latency')})` +
        ` · path, best run ${col('pathBest')} (median run ${col('path')}) · burst roundtrip ${col('roundtrip')}` +
        ` · first measured run / others: median ${median(of.map(r => r.first)).toFixed(3)}`
    )
  }
  console.log(`load average after: ${loadAverage()}`)
}

main().catch(err => {
  console.error(err instanceof Error ? err.message : err)
  process.exit(1)
})
