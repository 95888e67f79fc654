/**
 * Time and bytes of one append to a history of 10,000 entries, with real git and a bare remote.
 * Run: npm run bench:history -- [entries=10000]
 */
import { execFileSync } from 'node:child_process'
import { metricNames } from '../src/metrics/samples'
import { randomUUID } from 'node:crypto'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { appendToBranch } from '../src/history/branch-store'
import { writeEntryFiles } from '../src/history/dir-store'
import { entriesFromResult } from '../src/history/from-result'
import { entryPath, serializeEntry } from '../src/history/layout'
import { readHistory } from '../src/history/read'
import { RESULT_SCHEMA, type Result, type RunResult, type Summary } from '../src/result/schema'

const ENTRIES = Number(process.argv[2] ?? 10000)
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
function result(day: number): Result {
  const startedAt = new Date(Date.UTC(2020, 0, 1) + day * 86_400_000)
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

const sh = (cwd: string, ...args: string[]) =>
  execFileSync(
    'git',
    ['-c', 'gc.auto=0', '-c', 'user.name=bench', '-c', 'user.email=bench@example.com', ...args],
    {
      cwd,
      encoding: 'utf8',
      maxBuffer: 1 << 28
    }
  )

function dirBytes(dir: string): { files: number; bytes: number } {
  let files = 0
  let bytes = 0
  for (const d of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (d.isFile()) {
      files++
      bytes += fs.statSync(path.join(d.parentPath, d.name)).size
    }
  }
  return { files, bytes }
}

const mb = (b: number) => `${(b / 1e6).toFixed(2)} MB`
const secs = (t0: number) => `${((performance.now() - t0) / 1000).toFixed(2)} s`

/** Writes `count` entries to a gh-pages branch of a new bare remote; they are not kept in memory. */
function seed(tmp: string, count: number): string {
  const bare = path.join(tmp, 'remote.git')
  const scratch = path.join(tmp, 'seed')
  sh(tmp, 'init', '-q', '--bare', bare)
  sh(tmp, 'init', '-q', '-b', 'gh-pages', scratch)
  const t0 = performance.now()
  let written = 0
  for (let day = 0; written < count; day++) {
    const entries = entriesFromResult(result(day)).slice(0, count - written)
    writeEntryFiles(path.join(scratch, 'benchmarks'), entries)
    written += entries.length
  }
  sh(scratch, 'add', '-A')
  sh(scratch, 'commit', '-qm', 'seed')
  sh(scratch, 'push', '-q', bare, 'gh-pages')
  sh(bare, 'gc', '-q')
  const stored = dirBytes(path.join(scratch, 'benchmarks'))
  const pack = dirBytes(path.join(bare, 'objects'))
  console.log(
    `seeded ${stored.files} entries in ${secs(t0)}: ${mb(stored.bytes)} of JSON, ` +
      `${(stored.bytes / stored.files / 1000).toFixed(1)} kB per entry; remote packed ${mb(pack.bytes)} ` +
      `(${(pack.bytes / stored.files / 1000).toFixed(1)} kB per entry)`
  )
  fs.rmSync(scratch, { recursive: true, force: true })
  return bare
}

async function append(bare: string, workDir: string, label: string): Promise<void> {
  const added = entriesFromResult(result(5_000 + label.length))
  const before = dirBytes(path.join(bare, 'objects'))
  const t0 = performance.now()
  const out = await appendToBranch({
    repo: bare,
    branch: 'gh-pages',
    dir: 'benchmarks',
    workDir,
    entries: added
  })
  const took = secs(t0)
  const after = dirBytes(path.join(bare, 'objects'))
  const entryBytes = added.reduce((n, e) => n + Buffer.byteLength(serializeEntry(e)), 0)
  const changed = sh(bare, 'diff-tree', '-r', '--name-only', `${out.commit}^`, out.commit!)
    .trim()
    .split('\n')
  console.log(
    `append, ${label}: ${added.length} entries (one suite result) in ${took}, ${out.attempts} attempt(s)`
  )
  console.log(
    `  ${changed.length} files changed (e.g. ${entryPath(added[0])}), ${mb(entryBytes)} of entries;`
  )
  console.log(
    `  remote grew by ${mb(after.bytes - before.bytes)} in ${after.files - before.files} loose objects`
  )
}

async function main(): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'history-bench-'))
  try {
    console.log(
      `load average ${os
        .loadavg()
        .map(l => l.toFixed(1))
        .join(' ')} on ${os.cpus().length} cores`
    )
    const bare = seed(tmp, ENTRIES)
    await append(bare, path.join(tmp, 'cold'), 'cold (fresh clone directory, as on Actions)')

    // The phases of a cold append, measured apart: git transfer and checkout, then validation.
    const phases = path.join(tmp, 'phases')
    fs.mkdirSync(phases)
    let t0 = performance.now()
    sh(phases, 'init', '-q')
    sh(phases, 'fetch', '-q', '--depth=1', bare, '+refs/heads/gh-pages:refs/remotes/h/gh-pages')
    sh(phases, 'reset', '-q', '--hard', 'refs/remotes/h/gh-pages')
    console.log(`  of which git fetch --depth=1 + checkout: ${secs(t0)}`)
    t0 = performance.now()
    const all = readHistory(path.join(phases, 'benchmarks'))
    console.log(`  of which readHistory (read, parse, validate ${all.length} entries): ${secs(t0)}`)

    await append(bare, path.join(tmp, 'cold'), 'warm (clone directory reused)')
    console.log(
      `load average ${os
        .loadavg()
        .map(l => l.toFixed(1))
        .join(' ')}`
    )
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true })
  }
}

main().catch(err => {
  console.error(err)
  process.exit(1)
})
