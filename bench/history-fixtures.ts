/** What the history benchmarks share: suite results like the standard one, git, sizes, load. */
import { execFileSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { metricNames } from '../src/metrics/samples'
import { RESULT_SCHEMA, type Result, type RunResult, type Summary } from '../src/result/schema'

const CASES = ['1', '2', '3', '4']
const REQUESTS = 50
// The shape the suite produces for a two-router chain: roundtrip, frontend, hops, service times.
const METRICS = metricNames(2)

const summarize = (v: number[]): Summary => {
  const s = [...v].sort((a, b) => a - b)
  const mean = v.reduce((a, b) => a + b, 0) / v.length
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))]
  const std = Math.sqrt(v.reduce((a, b) => a + (b - mean) ** 2, 0) / v.length)
  return {
    n: v.length,
    mean,
    median: at(0.5),
    p90: at(0.9),
    p99: at(0.99),
    min: s[0],
    max: s[s.length - 1],
    std
  }
}

function run(index: number, startedAt: Date): RunResult {
  const samples = Object.fromEntries(
    METRICS.map(m => [
      m,
      Array.from(
        { length: m.startsWith('f:') ? REQUESTS - 1 : REQUESTS },
        () => 0.02 + Math.random() * 0.2
      )
    ])
  )
  return {
    index,
    rate: null,
    warmup: index === 0,
    startedAt: new Date(startedAt.getTime() + index * 10_000).toISOString(),
    clientSeconds: 6,
    requests: REQUESTS,
    payloadBytes: 500_000_000,
    dataRateMBps: 80,
    summaries: Object.fromEntries(Object.entries(samples).map(([m, v]) => [m, summarize(v)])),
    samples
  }
}

/** A suite result like the standard one: 4 cases, one warm-up and three measured runs each. */
export function result(startedAt: Date): Result {
  const sha = randomUUID().replace(/-/g, '').padEnd(40, '0')
  return {
    schema: RESULT_SCHEMA,
    id: randomUUID(),
    meta: {
      gnes: { version: '0.0.47', tag: '0.0.47', vcs: null, buildDate: null },
      engine: 'local',
      load: {
        docs: 500,
        batchSize: 10,
        docBytes: 1_000_000,
        runs: 3,
        requests: 20,
        warmupRequests: 5
      },
      host: {
        hostname: 'bench',
        os: 'linux',
        arch: 'x64',
        cpus: 2,
        memoryBytes: 2 ** 34,
        node: process.version,
        runner: 'GitHub Actions 2'
      },
      cpusAwake: false,
      git: {
        sha,
        ref: 'refs/heads/master',
        event: 'push',
        repository: 'gnes-ai/gnes',
        runId: '1',
        serverUrl: 'https://github.com',
        message: 'bench'
      },
      startedAt: startedAt.toISOString(),
      finishedAt: startedAt.toISOString()
    },
    cases: CASES.map(id => {
      const runs = [0, 1, 2, 3].map(i => run(i, startedAt))
      const best = Object.fromEntries(
        METRICS.map(m => [m, Math.min(...runs.slice(1).map(r => r.summaries[m].mean))])
      )
      return {
        id,
        kind: 'gnes' as const,
        name: `case ${id}`,
        topologyFile: `case${id}.yml`,
        services: [],
        profile: { kind: 'burst' as const },
        headline: 'roundtrip',
        sweep: null,
        metrics: METRICS,
        runs,
        best,
        dataRateMBps: 80,
        legacyMBps: 500 / best.roundtrip
      }
    })
  }
}

export const sh = (cwd: string, ...args: string[]): string => shInput(cwd, '', ...args)

/** git with `input` on its standard input. */
export const shInput = (cwd: string, input: string, ...args: string[]): string =>
  execFileSync(
    'git',
    ['-c', 'gc.auto=0', '-c', 'user.name=bench', '-c', 'user.email=bench@example.com', ...args],
    { cwd, input, encoding: 'utf8', maxBuffer: 1 << 28 }
  )

/** Bytes of the files under `dir` (0 when absent). */
export function dirBytes(dir: string): number {
  if (!fs.existsSync(dir)) return 0
  let bytes = 0
  for (const d of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (d.isFile()) bytes += fs.statSync(path.join(d.parentPath, d.name)).size
  }
  return bytes
}

export const kb = (b: number): string => `${(b / 1000).toFixed(1)} kB`
export const secs = (t0: number): string => `${((performance.now() - t0) / 1000).toFixed(2)} s`
export const load = (): string =>
  `load average ${os
    .loadavg()
    .map(l => l.toFixed(1))
    .join(' ')} on ${os.cpus().length} cores`

/** Bytes of git objects as transferred: packs and loose objects, not pack indexes. */
export function objectBytes(objects: string): number {
  if (!fs.existsSync(objects)) return 0
  let bytes = 0
  for (const d of fs.readdirSync(objects, { withFileTypes: true, recursive: true })) {
    const loose = /^[0-9a-f]{38}$/.test(d.name)
    if (d.isFile() && (loose || d.name.endsWith('.pack'))) {
      bytes += fs.statSync(path.join(d.parentPath, d.name)).size
    }
  }
  return bytes
}
