/**
 * Does paired mode find a 5 % slowdown and stay quiet without one, also while the machine drifts
 * inside the job? And what does a real GNES release pair measure, at what cost in wall time?
 *
 * Trials: each runs two paired runs with real GNES (local engine) on the blocking-router topologies
 * of topologies/examples/ under the minimal profile (both sides at the 0.105 s router's minimal
 * rate): 0.105 s vs 0.100 s (a 5 % slower router) and 0.100 s vs 0.100 s (identical builds),
 * judged as the action judges a pull request, and counts the regression verdicts. `--busy` starts
 * another process that keeps one core busy from the middle of every paired run to its end.
 * `--versions 0.0.45:0.0.46,…` measures release pairs (base:head) on case 1 at minimal load with
 * the standard request; `--wall` times a history-mode run of the same load beside a paired one;
 * `--deploy` measures what decides between keeping both topologies up and starting them per block:
 * a case-1 deployment's start and stop, and the CPU its services use while idle.
 * `--identical N` runs N trials of identical builds (0.0.47 beside 0.0.47) on case 1 at minimal
 * load with the standard request, each trial once in every one of `--modes` (paired-deploy /
 * paired-interleave, taking turns to go first), and counts the verdicts that are not "no change":
 * the false alarms of each way to run the sides, with the intervals' half-widths.
 * `--paired-deploy` and `--paired-interleave` set them for the other measurements.
 * Every figure is printed with the load average (1, 5, 15 min) after it was measured.
 *
 *   npm run bench:paired -- [--trials 20] [--runs auto] [--alert-threshold 2.5%] [--busy]
 *                           [--versions 0.0.45:0.0.46,0.0.46:0.0.47] [--wall] [--deploy]
 *                           [--identical 20] [--modes once/requests,once/blocks]
 *                           [--paired-deploy once|per-pair] [--paired-interleave requests|blocks]
 *                           [--save DIR]
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { parseArgs } from 'node:util'
import { setTimeout as sleep } from 'node:timers/promises'
import { parseInputs, type RawInputs } from '../src/config/inputs'
import { LocalEngine } from '../src/engine/local/engine'
import { warningsOnly, type Log } from '../src/log'
import { assetPath } from '../src/paths'
import { comparePaired, type PairedComparison } from '../src/judge/paired'
import { orderLetters } from '../src/client/interleave'
import { runPairedSuite, type PairedRun } from '../src/pipeline/suite/paired'
import { runSuite } from '../src/pipeline/suite/run-suite'
import { resolveTopology } from '../src/topology/load'
import { loadAverage, signedPct } from './machine'

const { values } = parseArgs({
  options: {
    trials: { type: 'string', default: '20' },
    runs: { type: 'string', default: 'auto' },
    'alert-threshold': { type: 'string', default: '2.5%' },
    busy: { type: 'boolean', default: false },
    versions: { type: 'string', default: '' },
    wall: { type: 'boolean', default: false },
    deploy: { type: 'boolean', default: false },
    identical: { type: 'string', default: '0' },
    'paired-deploy': { type: 'string', default: 'per-pair' },
    'paired-interleave': { type: 'string', default: 'requests' },
    /** With --identical: the ways to run both sides, each paired-deploy/paired-interleave. */
    modes: { type: 'string', default: 'once/requests,once/blocks' },
    /** Keep every paired run's two results here, to study the figures afterwards. */
    save: { type: 'string' }
  }
})
const trials = Number(values.trials)
if (
  values.busy &&
  values['paired-deploy'] === 'once' &&
  values['paired-interleave'] === 'requests'
) {
  // One stream carries every pair, so no line marks the middle of the run to start the hog at.
  throw new Error('--busy needs --paired-deploy per-pair or --paired-interleave blocks')
}
const pairs = parseInputs({ baseline: 'paired', runs: values.runs! }).runs
const threshold = parseInputs({ 'alert-threshold': values['alert-threshold']! })['alert-threshold']
const out = path.join(os.tmpdir(), 'gnes-bench-paired')
const example = (ms: number) => assetPath('topologies', 'examples', `blocking-${ms}ms.yml`)

/**
 * Warnings only, and under `--busy` a busy loop in another process from the middle of the paired
 * run on (its middle block, or with requests interleaved per pair, its middle pair): drift inside
 * the job, which the order of the runs must cancel.
 */
function trialLog(pairs: number, busy: boolean): { log: Log; stop(): void } {
  let hog: ChildProcess | null = null
  const middle = [`block ${pairs + 1}/${2 * pairs}:`, `pair ${Math.floor(pairs / 2) + 1}:`]
  return {
    log: {
      ...warningsOnly,
      info: m => {
        if (busy && !hog && middle.some(line => m.startsWith(line))) {
          hog = spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' })
        }
      }
    },
    stop: () => {
      hog?.kill('SIGKILL')
      hog = null
    }
  }
}

let saved = 0

async function paired(
  raw: Partial<RawInputs>,
  busy: boolean
): Promise<{ run: PairedRun; c: PairedComparison; seconds: number }> {
  const inputs = parseInputs({
    baseline: 'paired',
    engine: 'local',
    profiles: 'minimal',
    runs: values.runs!,
    // The fixed-length method these figures measured, 20 requests a run; bench/verdict.ts
    // measures the adaptive one at the action's defaults.
    'max-pairs': String(pairs),
    requests: '20',
    'out-dir': out,
    'paired-deploy': values['paired-deploy']!,
    'paired-interleave': values['paired-interleave']!,
    ...raw
  })
  const { log, stop } = trialLog(inputs.runs, busy)
  const t0 = Date.now()
  let run: PairedRun
  try {
    run = await runPairedSuite(inputs, { log })
  } finally {
    stop()
  }
  const seconds = (Date.now() - t0) / 1000
  if (values.save) {
    fs.mkdirSync(values.save, { recursive: true })
    fs.writeFileSync(
      path.join(values.save, `${String(++saved).padStart(2, '0')}.json`),
      JSON.stringify(run)
    )
  }
  return { run, c: comparePaired(run, { threshold }), seconds }
}

function verdictLine(c: PairedComparison): string {
  const m = c.cases[0].metrics.find(x => x.gating)!
  return (
    `${signedPct(m.change).padStart(6)} [${signedPct(m.ci[0])}, ${signedPct(m.ci[1])}] p=${m.p.toFixed(4)} ` +
    `${m.verdict.padEnd(11)} ratios ${m.ratios.map(r => r.toFixed(3)).join(' ')}`
  )
}

async function blockingTrials(): Promise<number[]> {
  const blocking = (baseMs: number, headMs: number): Partial<RawInputs> => ({
    topology: example(headMs),
    'baseline-topology': example(baseMs),
    'doc-bytes': '1000'
  })
  const counts = { slower: 0, same: 0 }
  const seconds: number[] = []
  console.log(
    `blocking router, minimal profile, ${pairs} pairs of 20 requests of 10 × 1000 B, ` +
      `alert-threshold ${values['alert-threshold']}, ${trials} trials` +
      `${values.busy ? ', one core busy from the middle of each paired run' : ''}; ` +
      `load average before: ${loadAverage()}`
  )
  for (let t = 1; t <= trials; t++) {
    // Alternate which comparison goes first, so a machine slowing down favours neither.
    const order = t % 2 ? ['slower', 'same'] : ['same', 'slower']
    for (const kind of order) {
      const r = await paired(
        kind === 'slower' ? blocking(100, 105) : blocking(100, 100),
        values.busy
      )
      seconds.push(r.seconds)
      if (kind === 'slower') counts.slower += Number(r.c.regression)
      else counts.same += Number(r.c.regression)
      console.log(
        `trial ${String(t).padStart(2)} ${kind === 'slower' ? '0.105 vs 0.100' : '0.100 vs 0.100'}: ` +
          `${verdictLine(r.c)} (${orderLetters(r.run.order)}, ${r.seconds.toFixed(0)} s; load ${loadAverage()})`
      )
    }
  }
  console.log(`\nregression verdicts (the action's 'regression' output), ${trials} trials:`)
  console.log(`  0.105 s vs 0.100 s: ${counts.slower}/${trials}`)
  console.log(`  0.100 s vs 0.100 s: ${counts.same}/${trials}`)
  console.log(`load average after: ${loadAverage()}`)
  return seconds
}

async function versionPairs(): Promise<void> {
  for (const pair of values.versions!.split(',').filter(Boolean)) {
    const [base, head] = pair.split(':')
    const r = await paired(
      { cases: '1', 'gnes-version': head, 'baseline-gnes-version': base },
      false
    )
    console.log(
      `GNES ${base} → ${head}, case 1, minimal load (${orderLetters(r.run.order)}, standard request): ` +
        `latency ${verdictLine(r.c)}; ${r.seconds.toFixed(0)} s; load ${loadAverage()}`
    )
  }
}

/** `--modes`: each a paired-deploy and a paired-interleave, as `once/requests`. */
const identicalModes = (): { deploy: string; interleave: string; name: string }[] =>
  values.modes!.split(',').map(name => {
    const [deploy, interleave] = name.split('/')
    return { deploy, interleave, name }
  })

/**
 * False alarms of identical builds on case 1, for each way to run the two sides; the modes take
 * turns going first, so a machine slowing down favours none.
 */
async function identicalCase1(n: number): Promise<void> {
  const modes = identicalModes()
  const alarms = new Map(modes.map(m => [m.name, 0]))
  const seconds = new Map(modes.map(m => [m.name, 0]))
  const halfWidths = new Map<string, number[]>(modes.map(m => [m.name, []]))
  console.log(
    `GNES 0.0.47 beside 0.0.47, case 1, minimal load, standard request, ${pairs} pairs, ` +
      `alert-threshold ${values['alert-threshold']}, ${n} trials; load average before: ${loadAverage()}`
  )
  for (let t = 1; t <= n; t++) {
    const turn = [...modes.slice((t - 1) % modes.length), ...modes.slice(0, (t - 1) % modes.length)]
    for (const mode of turn) {
      const r = await paired(
        {
          cases: '1',
          'gnes-version': '0.0.47',
          'baseline-gnes-version': '0.0.47',
          'paired-deploy': mode.deploy,
          'paired-interleave': mode.interleave
        },
        false
      )
      const gating = r.c.cases[0].metrics.find(x => x.gating)!
      alarms.set(mode.name, alarms.get(mode.name)! + Number(gating.verdict !== 'no-change'))
      seconds.set(mode.name, seconds.get(mode.name)! + r.seconds)
      halfWidths.get(mode.name)!.push((gating.ci[1] - gating.ci[0]) / 2)
      console.log(
        `trial ${String(t).padStart(2)} ${mode.name.padEnd(16)}: ${verdictLine(r.c)} ` +
          `(${r.seconds.toFixed(0)} s; load ${loadAverage()})`
      )
    }
  }
  for (const { name } of modes) {
    const widths = halfWidths.get(name)!.sort((a, b) => a - b)
    console.log(
      `${name}: ${alarms.get(name)}/${n} identical pairs judged a change; interval half-width ` +
        `median ${signedPct(widths[Math.floor(widths.length / 2)])}; mean wall ${(seconds.get(name)! / Math.max(n, 1)).toFixed(0)} s`
    )
  }
  console.log(`load average after: ${loadAverage()}`)
}

/** A history-mode run of the same load (what a pull request runs today), timed. */
async function historyRunSeconds(): Promise<number> {
  const inputs = parseInputs({
    topology: example(100),
    engine: 'local',
    profiles: 'minimal',
    runs: values.runs!,
    'doc-bytes': '1000',
    'out-dir': out
  })
  const t0 = Date.now()
  await runSuite(inputs, { log: warningsOnly })
  return (Date.now() - t0) / 1000
}

/** User + system CPU seconds of every live process marked with this run id (clock ticks of 1/100 s). */
function cpuSeconds(runId: string): number {
  let ticks = 0
  for (const pid of fs.readdirSync('/proc').filter(d => /^\d+$/.test(d))) {
    try {
      const env = fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0')
      if (!env.includes(`GNES_BENCH_SUITE=${runId}`)) continue
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      ticks += Number(fields[11]) + Number(fields[12])
    } catch {
      // The process ended between listing and reading.
    }
  }
  return ticks / 100
}

const IDLE_SECONDS = 20

async function deploymentCosts(): Promise<void> {
  const runId = randomUUID()
  const engine = new LocalEngine({ version: '0.0.47' }, runId, () => undefined)
  await engine.prepare()
  const { topology } = resolveTopology('1')
  const starts: number[] = []
  const stops: number[] = []
  let idleShare = 0
  try {
    for (let i = 0; i < 3; i++) {
      let t0 = Date.now()
      const dep = await engine.start(topology, {
        logDir: path.join(out, 'deploy', String(i)),
        readyTimeoutMs: 120_000
      })
      starts.push((Date.now() - t0) / 1000)
      if (i === 0) {
        const before = cpuSeconds(runId)
        await sleep(IDLE_SECONDS * 1000)
        idleShare = (cpuSeconds(runId) - before) / IDLE_SECONDS
      }
      t0 = Date.now()
      await dep.stop()
      stops.push((Date.now() - t0) / 1000)
    }
  } finally {
    await engine.shutdown()
  }
  const list = (xs: number[]) => xs.map(x => x.toFixed(1)).join(', ')
  console.log(
    `case 1 deployment (local, GNES 0.0.47): start ${list(starts)} s, stop ${list(stops)} s; ` +
      `its 3 idle services used ${(idleShare * 100).toFixed(1)} % of one core over ${IDLE_SECONDS} s; ` +
      `load ${loadAverage()}`
  )
}

async function main(): Promise<void> {
  if (values.deploy) await deploymentCosts()
  const seconds = trials > 0 ? await blockingTrials() : []
  if (values.versions) await versionPairs()
  if (Number(values.identical) > 0) await identicalCase1(Number(values.identical))
  if (values.wall) {
    const history = await historyRunSeconds()
    const pairedSeconds = seconds.length
      ? seconds.reduce((a, b) => a + b, 0) / seconds.length
      : (
          await paired(
            { topology: example(100), 'baseline-topology': example(100), 'doc-bytes': '1000' },
            false
          )
        ).seconds
    console.log(
      `wall time, runs ${values.runs}: history-mode run ${history.toFixed(1)} s, paired run ` +
        `${pairedSeconds.toFixed(1)} s${seconds.length ? ` (mean of ${seconds.length})` : ''}: ` +
        `ratio ${(pairedSeconds / history).toFixed(2)}; load ${loadAverage()}`
    )
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err))
  process.exitCode = 1
})
