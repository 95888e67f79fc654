/**
 * How much do two deployments of one build differ, for their whole lifetime? Case 1 (real GNES
 * 0.0.47, local engine or `--engine docker`, minimal load, the standard request) beside itself, both sides deployed
 * once and run at once with their requests alternating, `--deployments` times, each time afresh.
 * A deployment pair's difference is the median of its per-request log ratios (head request j ÷
 * base request j, half a period apart), which spells of the machine do not move; its own
 * standard error comes from a bootstrap of those ratios. The spread of the differences across
 * deployment pairs, less what their own standard errors explain, is the deployments' share.
 * `--configs` compares ways to start the services, taking turns per deployment so that a machine
 * drifting favours none; each is a `+`-joined list of:
 *   plain      as the action starts them
 *   hashseed   PYTHONHASHSEED=0 in every service and the client (the same dict layouts)
 *   noaslr     address space layout randomisation off (`setarch -R`: the same memory layout)
 *   pin        each role on its own core: frontends and clients on CPU 0, routers on CPU 1
 *              (`taskset`, applied as each process appears, before it has loaded GNES)
 *   tcpbuf     every TCP socket's receive buffer starts at its largest (`net.ipv4.tcp_rmem`'s
 *              default raised to its maximum for the pair), so no connection's autotuned buffer
 *              outlasts the others' (on Docker each container's network namespace copies the
 *              host's value when it is created)
 *   tcpwbuf    every TCP socket's send buffer starts at its largest (`net.ipv4.tcp_wmem`'s), likewise
 * Each deployment pair runs in a child process of its own, started under `setarch -R` for noaslr.
 *
 *   npm run bench:deployment-spread -- [--case 1] [--deployments 10] [--requests 150]
 *                                      [--configs plain,hashseed+noaslr,pin,tcpbuf] [--engine local]
 */
import { execFileSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { parseArgs } from 'node:util'
import { parseInputs } from '../src/config/inputs'
import { warningsOnly } from '../src/log'
import { median } from '../src/stats/sample'
import { runPairedSuite } from '../src/pipeline/suite/paired'
import type { CaseResult } from '../src/result/schema'
import { loadAverage } from './machine'

const { values } = parseArgs({
  options: {
    case: { type: 'string', default: '1' },
    engine: { type: 'string', default: 'local' },
    deployments: { type: 'string', default: '10' },
    requests: { type: 'string', default: '150' },
    configs: { type: 'string', default: 'plain,hashseed+noaslr,pin' },
    metrics: { type: 'string', default: 'path,latency,c->f:send' },
    /** Internal: measure one deployment pair of this config and print its figures as JSON. */
    pair: { type: 'string' },
    k: { type: 'string', default: '1' }
  }
})
const deployments = Number(values.deployments)
const requests = Number(values.requests)
const configs = values.configs!.split(',')
const onHost = ['hashseed', 'noaslr', 'pin']
if (values.engine !== 'local' && configs.some(c => c.split('+').some(k => onHost.includes(k))))
  throw new Error(`--configs: ${onHost.join(', ')} act on local processes only`)
const metrics = values.metrics!.split(',')
const out = path.join(os.tmpdir(), 'gnes-bench-deployment-spread')
const pct = (x: number): string => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(2)}%`

const ROLE_CPUS = { frontend: '0', client: '0', router: '1' }

/**
 * Pins every process of the suite (GNES_BENCH_SUITE in its environment) to its role's core as it
 * appears; returns the function that stops watching.
 */
function pinRoles(): () => void {
  const pinned = new Set<string>()
  const scan = (): void => {
    for (const pid of fs.readdirSync('/proc').filter(d => /^\d+$/.test(d))) {
      if (pinned.has(pid)) continue
      try {
        if (!fs.readFileSync(`/proc/${pid}/environ`, 'utf8').includes('GNES_BENCH_SUITE=')) continue
        const argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
        // The parent-death shim execs the service; pin what it became.
        if (argv.includes('-c')) continue
        const role = argv.includes('frontend')
          ? 'frontend'
          : argv.includes('route')
            ? 'router'
            : 'client'
        execFileSync('taskset', ['-a', '-cp', ROLE_CPUS[role], pid], { stdio: 'ignore' })
        pinned.add(pid)
      } catch {
        // Gone, or not ours to read.
      }
    }
  }
  const timer = setInterval(scan, 100)
  return () => clearInterval(timer)
}

const TCP_RMEM = '/proc/sys/net/ipv4/tcp_rmem'
const TCP_WMEM = '/proc/sys/net/ipv4/tcp_wmem'

/** Raises a TCP buffer sysctl's default to its maximum; returns the function that restores it. */
function largestBuffers(file: string): () => void {
  const was = fs.readFileSync(file, 'utf8').trim()
  const [min, , max] = was.split(/\s+/)
  fs.writeFileSync(file, `${min} ${max} ${max}`)
  return () => fs.writeFileSync(file, was)
}

/** Per-request log ratios of one metric over the measured runs, head ÷ base. */
function logRatios(base: CaseResult, head: CaseResult, metric: string): number[] {
  const measured = (c: CaseResult) => c.runs.filter(r => !r.warmup)
  const [b, h] = [measured(base), measured(head)]
  return b.flatMap((run, i) => {
    const bs = run.samples[metric]
    const hs = h[i].samples[metric]
    const n = Math.min(bs.length, hs.length)
    return Array.from({ length: n }, (_, j) => Math.log(hs[j] / bs[j]))
  })
}

/** Standard error of the median by a bootstrap (fixed seed: every run's figure is the same). */
function bootstrapSe(xs: number[], draws = 400): number {
  let seed = 12345
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
  const meds = Array.from({ length: draws }, () =>
    median(Array.from({ length: xs.length }, () => xs[Math.floor(rand() * xs.length)]))
  )
  const m = meds.reduce((a, x) => a + x, 0) / draws
  return Math.sqrt(meds.reduce((a, x) => a + (x - m) ** 2, 0) / (draws - 1))
}

async function deploymentPair(
  config: string,
  k: number
): Promise<Record<string, [number, number]>> {
  const inputs = parseInputs({
    baseline: 'paired',
    engine: values.engine!,
    cases: values.case!,
    profiles: 'minimal',
    'gnes-version': '0.0.47',
    'baseline-gnes-version': '0.0.47',
    'paired-deploy': 'once',
    'paired-interleave': 'requests',
    runs: '2',
    'max-pairs': '2',
    requests: String(Math.round(requests / 2)),
    'out-dir': path.join(out, config, String(k))
  })
  const knobs = config.split('+')
  if (knobs.includes('hashseed')) process.env.PYTHONHASHSEED = '0'
  const unpin = knobs.includes('pin') ? pinRoles() : () => undefined
  const unbuf = knobs.includes('tcpbuf') ? largestBuffers(TCP_RMEM) : () => undefined
  const unwbuf = knobs.includes('tcpwbuf') ? largestBuffers(TCP_WMEM) : () => undefined
  const run = await runPairedSuite(inputs, { log: warningsOnly }).finally(() => {
    unpin()
    unbuf()
    unwbuf()
  })
  const [base, head] = [run.base.cases[0], run.head.cases[0]]
  return Object.fromEntries(
    metrics.map(m => {
      const r = logRatios(base, head, m)
      return [m, [median(r), bootstrapSe(r)]]
    })
  )
}

/**
 * One deployment pair in a child process: ASLR is decided when a process is exec'd and inherited
 * from its parent, so a config without it needs a parent started under `setarch -R`.
 */
function pairInChild(config: string, k: number): Record<string, [number, number]> {
  const self = [process.argv[1], ...process.argv.slice(2), '--pair', config, '--k', String(k)]
  const argv = config.split('+').includes('noaslr')
    ? ['setarch', os.machine(), '-R', process.execPath, ...self]
    : [process.execPath, ...self]
  const out = execFileSync(argv[0], argv.slice(1), {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit']
  })
  return JSON.parse(out.trim().split('\n').pop()!)
}

async function main(): Promise<void> {
  console.log(
    `case ${values.case} (0.0.47) beside itself on the ${values.engine} engine, deployed once, requests alternating, ${requests} requests a ` +
      `deployment pair, ${deployments} pairs of each of ${configs.join(', ')}; load average before: ${loadAverage()}`
  )
  const diffs = new Map(
    configs.map(c => [c, new Map(metrics.map(m => [m, [] as [number, number][]]))])
  )
  for (let k = 1; k <= deployments; k++) {
    const turn = [
      ...configs.slice((k - 1) % configs.length),
      ...configs.slice(0, (k - 1) % configs.length)
    ]
    for (const config of turn) {
      const t0 = Date.now()
      const d = pairInChild(config, k)
      for (const m of metrics) diffs.get(config)!.get(m)!.push(d[m])
      console.log(
        `pair ${String(k).padStart(2)} ${config.padEnd(20)} ` +
          metrics
            .map(m => `${m} ${pct(Math.exp(d[m][0]) - 1)} ±${(d[m][1] * 100).toFixed(2)}%`)
            .join('  ') +
          ` (${((Date.now() - t0) / 1000).toFixed(0)} s; load ${loadAverage()})`
      )
    }
  }
  console.log('\nspread of the A/A difference across deployment pairs (log ratios, as %):')
  for (const config of configs) {
    for (const m of metrics) {
      const xs = diffs.get(config)!.get(m)!
      const ds = xs.map(x => x[0])
      const mu = ds.reduce((a, x) => a + x, 0) / ds.length
      const sd = Math.sqrt(ds.reduce((a, x) => a + (x - mu) ** 2, 0) / (ds.length - 1))
      const within = Math.sqrt(xs.reduce((a, x) => a + x[1] ** 2, 0) / xs.length)
      const between = Math.sqrt(Math.max(0, sd ** 2 - within ** 2))
      console.log(
        `  ${config.padEnd(20)} ${m.padEnd(10)} s.d. ${(sd * 100).toFixed(2)}%  within ${(within * 100).toFixed(2)}%  ` +
          `deployments ${(between * 100).toFixed(2)}%  range ${pct(Math.exp(Math.min(...ds)) - 1)} … ${pct(Math.exp(Math.max(...ds)) - 1)}  mean ${pct(Math.exp(mu) - 1)}`
      )
    }
  }
  console.log(`load average after: ${loadAverage()}`)
}

const job = values.pair
  ? deploymentPair(values.pair, Number(values.k)).then(d => console.log(JSON.stringify(d)))
  : main()
job.catch(err => {
  console.error(err)
  process.exit(1)
})
