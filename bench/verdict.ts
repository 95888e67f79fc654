/**
 * Does the verdict know what it can see? Trials of paired mode at the action's defaults (case 1,
 * minimal load, 6 pairs a first look, adaptive up to 30, per-pair deployments, requests
 * interleaved, `alert-threshold: 2.5%`) with real GNES on the local engine:
 *   slow: head = case 1 with Router2 about 1 ms slower per message
 *         (topologies/examples/case1-router2-1ms.yml), base = case 1;
 *   same: head = base = case 1 (identical copies);
 *   half: head = case 1 with Router2 about 0.5 ms slower
 *         (topologies/examples/case1-router2-0.5ms.yml: ≈ 2 % of a 25 ms `path`, 5 % of 9 ms);
 *   small: head = case 1 with Router2 about 0.2 ms slower
 *         (topologies/examples/case1-router2-0.2ms.yml: ≈ 2 % of a 9 ms `path`);
 *   half and small are for the stretch figure (about 2 %), with an `--alert-threshold` below it.
 * Each trial prints the answer, the verdict metric's change and interval, the pairs it took, why it
 * stopped and its wall time, with the load average; the end counts the answers of each kind.
 * `--busy` runs two other processes that keep both cores busy for the whole of every trial.
 * `--stall-pair N` stops one side's frontend (SIGSTOP, then SIGCONT) for `--stall-seconds` (8) of
 * pair N's 12 s measured run, from 9 s after the pair starts (2 s of client start and 6 s of
 * warm-up come first): a real outlier pair, as a stalled service or a bad placement makes one;
 * the trial line names the pairs the verdict set aside. Each trial line also checks the hop shares: the parts and the
 * residual sum to the explained change, and `r2:proc`'s share lies within its interval.
 * `--history` instead measures history mode with `runs: 2`: a baseline of case 1 and a head whose
 * Router2 sleeps 30 ms (latency more than twice case 1's), `--trials` times, each compared as a
 * pull request would be; the answer must be regression or inconclusive, never "no change".
 *
 *   npm run bench:verdict -- [--trials 20] [--kinds slow,same,half,small] [--busy] [--history]
 *     [--alert-threshold 2.5%] [--stall-pair N] [--stall-seconds 8] [--save DIR]
 */
import { spawn, type ChildProcess } from 'node:child_process'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { parseArgs } from 'node:util'
import { parseInputs, type RawInputs } from '../src/config/inputs'
import { entriesFromResult } from '../src/history/from-result'
import { warningsOnly, type Log } from '../src/log'
import { assetPath } from '../src/paths'
import { compareResult } from '../src/judge/compare'
import { comparePaired } from '../src/judge/paired'
import type { Verdict } from '../src/judge/verdict'
import { runPairedSuite } from '../src/pipeline/suite/paired'
import { runSuite } from '../src/pipeline/suite/run-suite'
import { loadAverage, signedPct } from './machine'

const { values } = parseArgs({
  options: {
    trials: { type: 'string', default: '20' },
    kinds: { type: 'string', default: 'slow,same' },
    busy: { type: 'boolean', default: false },
    history: { type: 'boolean', default: false },
    'alert-threshold': { type: 'string', default: '2.5%' },
    'stall-pair': { type: 'string' },
    'stall-seconds': { type: 'string', default: '8' },
    /** Keep every paired run (both results and the sequences) here. */
    save: { type: 'string' }
  }
})
const trials = Number(values.trials)
const out = path.join(os.tmpdir(), 'gnes-bench-verdict')
const case1 = assetPath('topologies', 'case1.yml')
const example = (file: string): string => assetPath('topologies', 'examples', file)
/** The head topology of each `--kinds` entry; the base is always case 1. */
const heads: Record<string, string> = {
  slow: example('case1-router2-1ms.yml'),
  same: case1,
  half: example('case1-router2-0.5ms.yml'),
  small: example('case1-router2-0.2ms.yml')
}

/**
 * Two processes that keep both cores busy until stopped, or until this script is gone however it
 * ended (a signal's handler exits without running `finally`): each leaves once it is orphaned.
 */
const HOG =
  'const p = process.ppid; for (;;) { for (let i = 0; i < 1e7; i++); if (process.ppid !== p) process.exit() }'
function hogs(on: boolean): () => void {
  const procs: ChildProcess[] = on
    ? [0, 1].map(() => spawn(process.execPath, ['-e', HOG], { stdio: 'ignore' }))
    : []
  return () => procs.forEach(p => p.kill('SIGKILL'))
}

/** The local engine's GNES frontends (`gnes frontend …`), by PID, oldest first. */
function frontends(): number[] {
  return fs
    .readdirSync('/proc')
    .filter(d => /^\d+$/.test(d))
    .filter(pid => {
      try {
        const argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
        return argv.some(a => a.endsWith('gnes')) && argv.includes('frontend')
      } catch {
        return false
      }
    })
    .map(Number)
    .sort((a, b) => a - b)
}

/** With `--stall-pair`: one side's frontend stopped for most of that pair's measured run. */
function stallOnPair(line: string, stalls: string[]): void {
  const pair = Number(values['stall-pair'])
  if (!pair || !line.startsWith(`pair ${pair}:`)) return
  const hold = Number(values['stall-seconds']) * 1000
  setTimeout(() => {
    const [pid] = frontends()
    if (!pid) return void stalls.push(`pair ${pair}: no frontend to stop`)
    process.kill(pid, 'SIGSTOP')
    stalls.push(`pair ${pair}: frontend ${pid} stopped for ${hold / 1000} s`)
    setTimeout(() => process.kill(pid, 'SIGCONT'), hold)
  }, 9000)
}

/** Lines a paired run logs about its looks, kept for the trial's line; the stall's trigger. */
function lookLog(): { log: Log; looks: string[] } {
  const looks: string[] = []
  return {
    looks,
    log: {
      ...warningsOnly,
      info: m => {
        if (m.startsWith('look ')) looks.push(m)
        stallOnPair(m, looks)
      }
    }
  }
}

/** The hop shares' check: parts and residual sum to the explained change; r2's share in its interval. */
function sharesCheck(k: ReturnType<typeof comparePaired>['cases'][number]): string {
  const s = k.shares
  if (!s) return 'shares –'
  const sum = [...s.parts, s.residual].reduce((a, p) => a + p.delta, 0)
  const r2 = s.parts.find(p => p.metric === 'r2:proc')
  const within =
    r2?.share != null && r2.shareCi
      ? r2.share >= r2.shareCi[0] && r2.share <= r2.shareCi[1]
        ? `r2:proc ${(r2.share * 100).toFixed(0)} % in [${(r2.shareCi[0] * 100).toFixed(0)}, ${(r2.shareCi[1] * 100).toFixed(0)}] %`
        : `r2:proc share OUTSIDE its interval`
      : 'r2:proc no share'
  return `shares sum ${(sum * 1e6).toFixed(1)} µs of ${(s.total.delta * 1e6).toFixed(1)} µs, ${within}`
}

let saved = 0

async function pairedTrials(): Promise<void> {
  const kinds = values.kinds!.split(',')
  const unknown = kinds.filter(k => !Object.hasOwn(heads, k))
  if (unknown.length)
    throw new Error(`--kinds: unknown ${unknown.join(', ')} (${Object.keys(heads).join(', ')})`)
  const counts = Object.fromEntries(
    kinds.map(k => [k, { regression: 0, improvement: 0, 'no-change': 0, inconclusive: 0 }])
  ) as Record<string, Record<Verdict, number>>
  const seconds: number[] = []
  console.log(
    `case 1 paired at the defaults (minimal load, per-pair, requests, 6 pairs up to 30, ` +
      `${values['alert-threshold']}), ${trials} trials of ${kinds.join(', ')}` +
      `${values.busy ? ', both cores kept busy by two other processes' : ''}; load average before: ${loadAverage()}`
  )
  for (let t = 1; t <= trials; t++) {
    // Alternate which kind goes first, so a machine slowing down favours neither.
    const order = t % 2 ? kinds : [...kinds].reverse()
    for (const kind of order) {
      const inputs = parseInputs({
        baseline: 'paired',
        engine: 'local',
        profiles: 'minimal',
        'alert-threshold': values['alert-threshold']!,
        topology: heads[kind],
        'baseline-topology': case1,
        'out-dir': out
      } satisfies Partial<RawInputs>)
      const { log, looks } = lookLog()
      const stop = hogs(values.busy!)
      const t0 = Date.now()
      let run
      try {
        run = await runPairedSuite(inputs, { log })
      } finally {
        stop()
      }
      const wall = (Date.now() - t0) / 1000
      seconds.push(wall)
      if (values.save) {
        fs.mkdirSync(values.save, { recursive: true })
        const file = `${String(++saved).padStart(2, '0')}-${kind}.json`
        fs.writeFileSync(path.join(values.save, file), JSON.stringify(run))
      }
      const c = comparePaired(run, { threshold: inputs['alert-threshold'] })
      const k = c.cases[0]
      const m = k.metrics.find(x => x.gating)!
      const latency = k.metrics.find(x => x.metric === 'latency')
      const r2 = k.metrics.find(x => x.metric === 'r2:proc')
      counts[kind][m.verdict]++
      console.log(
        `trial ${String(t).padStart(2)} ${kind}: ${m.verdict.padEnd(12)} ${m.metric} ${signedPct(m.change)} ` +
          `[${signedPct(m.ci[0])}, ${signedPct(m.ci[1])}], ${k.sequence.pairs} pairs (${k.sequence.stop}), ` +
          `${wall.toFixed(0)} s; latency ${latency ? `${signedPct(latency.change)} ${latency.verdict}` : '–'}, ` +
          `r2:proc ${r2 ? `${signedPct(r2.change)} ${r2.verdict}` : '–'}; ${sharesCheck(k)}; ` +
          `set aside ${k.setAside.length ? k.setAside.map(i => i + 1).join(', ') : 'none'}; load ${loadAverage()}` +
          (looks.length ? `\n    ${looks.join('\n    ')}` : '')
      )
    }
  }
  console.log(`\nanswers over ${trials} trials (the verdict metric of case 1):`)
  for (const kind of kinds) {
    const n = counts[kind]
    console.log(
      `  ${kind}: regression ${n.regression}, improvement ${n.improvement}, ` +
        `no change ${n['no-change']}, inconclusive ${n.inconclusive}`
    )
  }
  console.log(
    `wall time per trial: ${Math.min(...seconds).toFixed(0)}–${Math.max(...seconds).toFixed(0)} s; ` +
      `load average after: ${loadAverage()}`
  )
}

/** History mode with 2 runs a side: a baseline of case 1, a head more than twice as slow. */
async function historyTrials(): Promise<void> {
  const counts: Record<Verdict, number> = {
    regression: 0,
    improvement: 0,
    'no-change': 0,
    inconclusive: 0
  }
  console.log(
    `history mode, runs 2, case 1 against Router2 sleeping 30 ms, minimal load, ` +
      `${values['alert-threshold']}, ${trials} trials; load average before: ${loadAverage()}`
  )
  const suite = async (file: string) =>
    runSuite(
      parseInputs({
        topology: file,
        engine: 'local',
        profiles: 'minimal',
        runs: '2',
        'out-dir': out
      }),
      { log: warningsOnly }
    )
  for (let t = 1; t <= trials; t++) {
    const base = await suite(case1)
    const head = await suite(example('case1-router2-30ms.yml'))
    const threshold = parseInputs({ 'alert-threshold': values['alert-threshold']! })[
      'alert-threshold'
    ]
    const c = compareResult(head, entriesFromResult(base), {
      threshold,
      baseRef: null,
      mergeBaseSha: null
    })
    const m = c.cases[0].metrics.find(x => x.gating)!
    counts[m.verdict]++
    console.log(
      `trial ${String(t).padStart(2)}: ${m.verdict.padEnd(12)} ${m.metric} ${signedPct(m.change)} ` +
        `[${m.ci ? `${signedPct(m.ci[0])}, ${signedPct(m.ci[1])}` : 'untested'}]; load ${loadAverage()}`
    )
  }
  console.log(
    `\nhistory mode, runs 2, a head twice as slow: regression ${counts.regression}, ` +
      `inconclusive ${counts.inconclusive}, no change ${counts['no-change']}, improvement ` +
      `${counts.improvement}; load average after: ${loadAverage()}`
  )
}

;(values.history ? historyTrials() : pairedTrials()).catch(err => {
  console.error(err)
  process.exit(1)
})
