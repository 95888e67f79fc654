/**
 * One append of a suite result (4 entries) to a history of N entries on a gh-pages branch, real
 * git and a bare remote that serves partial fetches as GitHub does: time (and the render's part of
 * it), bytes fetched and pushed (objects that crossed the wire, deltas as sent), how much the
 * remote's packs grew (a received thin pack is completed with its bases), and what the push
 * carried by kind; cold (a fresh clone directory, as on Actions) and warm.
 * Last, the pre-flight of a recording run against that history (cold, five times).
 * Run: npm run bench:history -- [entries=10000] [suite results per day=1]
 *
 * The history has one suite result per day by default (nightly runs: about 30 entries per case
 * and month; what an append rewrites grows with that, not with the history's size). Entries
 * of the newest three months are full size (samples and runs, ~16 kB); older ones are stored
 * without samples (~1 kB) to keep seeding 100,000 entries short: an append never reads those.
 */
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { appendToBranch, checkBranchWritable, type BranchAppend } from '../src/history/branch-store'
import { checkBranchNames, checkReachable } from '../src/history/preflight'
import { writeEntryFiles } from '../src/history/dir-store'
import { entriesFromResult } from '../src/history/from-result'
import type { Render } from '../src/history/render-hook'
import { renderHook } from '../src/pipeline'
import { dirBytes, kb, load, objectBytes, result, secs, sh, shInput } from './history-fixtures'

const ENTRIES = Number(process.argv[2] ?? 10000)
const STEP_MS = 86_400_000 / Number(process.argv[3] ?? 1)
const FULL_MONTHS_MS = 92 * 86_400_000

/** Writes `count` entries to a gh-pages branch written by an earlier version (entries, no index). */
function seed(tmp: string, count: number): { bare: string; end: Date } {
  const bare = path.join(tmp, 'remote.git')
  const scratch = path.join(tmp, 'seed')
  sh(tmp, 'init', '-q', '--bare', bare)
  // As GitHub: partial fetches served; each push kept as one pack, so its size is what was sent.
  sh(bare, 'config', 'uploadpack.allowFilter', 'true')
  sh(bare, 'config', 'receive.unpackLimit', '1')
  sh(tmp, 'init', '-q', '-b', 'gh-pages', scratch)
  const t0 = performance.now()
  const start = Date.UTC(2010, 0, 1)
  const results = Math.ceil(count / 4)
  const end = new Date(start + results * STEP_MS)
  let written = 0
  for (let i = 0; written < count; i++) {
    const at = new Date(start + i * STEP_MS)
    const full = end.getTime() - at.getTime() < FULL_MONTHS_MS
    const entries = entriesFromResult(result(at))
      .slice(0, count - written)
      .map(e => (full ? e : { ...e, samples: null, runs: [] }))
    writeEntryFiles(path.join(scratch, 'benchmarks'), entries)
    written += entries.length
  }
  sh(scratch, 'add', '-A')
  sh(scratch, 'commit', '-qm', 'seed')
  sh(scratch, 'push', '-q', bare, 'gh-pages')
  sh(bare, 'gc', '-q')
  console.log(
    `seeded ${written} entries (${results} suite results, ${end.toISOString().slice(0, 7)} newest) in ${secs(t0)}; remote ${kb(dirBytes(path.join(bare, 'objects')))}`
  )
  fs.rmSync(scratch, { recursive: true, force: true })
  return { bare, end }
}

const packs = (repo: string): Set<string> => {
  const dir = path.join(repo, 'objects', 'pack')
  return new Set(fs.existsSync(dir) ? fs.readdirSync(dir).filter(f => f.endsWith('.pack')) : [])
}

/** Ids of every object in a repository (`repo` is its git directory). */
const objectIds = (repo: string): Set<string> =>
  fs.existsSync(repo)
    ? new Set(
        sh(repo, 'cat-file', '--batch-all-objects', '--batch-check=%(objectname)').split('\n')
      )
    : new Set()

/**
 * Objects that crossed the wire into `repo` since `before`, with their bytes: the objects of its
 * new packs that it did not hold, as stored there (deltas stay deltas). A thin pack's bases, which
 * git appends to the received pack from objects the repository already had, are not counted: they
 * were not sent.
 */
function received(
  repo: string,
  packsBefore: Set<string>,
  before: Set<string>
): Map<string, number> {
  const out = new Map<string, number>()
  for (const p of packs(repo)) {
    if (packsBefore.has(p)) continue
    const idx = path.join(repo, 'objects', 'pack', p.replace(/\.pack$/, '.idx'))
    for (const line of sh(repo, 'verify-pack', '-v', idx).split('\n')) {
      const [oid, type, , inPack] = line.split(/\s+/)
      if (/^(commit|tree|blob|tag)$/.test(type) && !before.has(oid)) out.set(oid, Number(inPack))
    }
  }
  return out
}

const total = (objects: Map<string, number>): number =>
  [...objects.values()].reduce((a, b) => a + b, 0)

/** Objects grouped as pushedByKind groups them: trees, and files by their folder. */
function byKind(kinds: Map<string, string>, objects: Map<string, number>): string {
  const groups = new Map<string, number>()
  for (const [oid, bytes] of objects) {
    const kind = kinds.get(oid) ?? 'commits'
    groups.set(kind, (groups.get(kind) ?? 0) + bytes)
  }
  return [...groups]
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${k} ${kb(n)}`)
    .join(', ')
}

/** Object id → kind (trees, or the file's folder in the history directory) at a commit of `repo`. */
function kindsAt(repo: string, commit: string): Map<string, string> {
  const kinds = new Map<string, string>()
  for (const line of sh(repo, 'ls-tree', '-r', '-t', commit).trim().split('\n')) {
    const [meta, file] = line.split('\t')
    const [, type, oid] = meta.split(' ')
    kinds.set(oid, type === 'tree' ? 'trees' : (file.split('/')[1] ?? file))
  }
  return kinds
}

/**
 * Git processes the append started (not their children), by command, and the seconds its fetches
 * took (git's own clock, from the trace2 events), so the work beyond the fetch can be told apart.
 */
function gitProcesses(traceFile: string): { summary: string; fetchSeconds: number } {
  if (!fs.existsSync(traceFile)) return { summary: '0 git processes', fetchSeconds: 0 }
  const events = fs
    .readFileSync(traceFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map(l => JSON.parse(l) as { event: string; sid: string; argv?: string[]; t_abs?: number })
    .filter(e => !e.sid.includes('/'))
  const command = new Map<string, string>()
  for (const e of events.filter(e => e.event === 'start')) {
    command.set(
      e.sid,
      (e.argv ?? []).slice(1).find(a => !a.startsWith('-') && !a.includes('=')) ?? '?'
    )
  }
  const byCommand = new Map<string, { n: number; seconds: number }>()
  for (const c of command.values()) {
    byCommand.set(c, { n: (byCommand.get(c)?.n ?? 0) + 1, seconds: 0 })
  }
  for (const e of events.filter(e => e.event === 'exit')) {
    const c = byCommand.get(command.get(e.sid) ?? '?')
    if (c) c.seconds += e.t_abs ?? 0
  }
  const fetchSeconds = byCommand.get('fetch')?.seconds ?? 0
  const counts = [...byCommand]
    .sort((a, b) => b[1].n - a[1].n)
    .map(([c, { n, seconds }]) => `${c} ${n} ${seconds.toFixed(2)} s`)
    .join(', ')
  return { summary: `${command.size} git processes (${counts})`, fetchSeconds }
}

async function append(
  bare: string,
  workDir: string,
  at: Date,
  render: Render,
  label: string
): Promise<BranchAppend> {
  // Every fetch keeps its pack, so what was fetched is told apart from what was written here.
  const work = path.join(workDir, '.git')
  if (!fs.existsSync(work)) {
    sh(path.dirname(workDir), 'init', '-q', workDir)
    sh(workDir, 'config', 'fetch.unpackLimit', '1')
  }
  const workPacks = packs(work)
  const workObjects = objectIds(work)
  const remoteBefore = objectBytes(path.join(bare, 'objects'))
  const packsBefore = packs(bare)
  const remoteObjects = objectIds(bare)
  // The report's own time (vega, Handlebars, writing files), told apart from the git work.
  let rendering = 0
  const timed: Render = {
    ...render,
    async report(cases) {
      const r0 = performance.now()
      const site = await render.report(cases)
      rendering += performance.now() - r0
      return site
    }
  }
  const trace = path.join(workDir, '..', 'trace2.json')
  fs.rmSync(trace, { force: true })
  process.env.GIT_TRACE2_EVENT = trace
  const t0 = performance.now()
  const out = await appendToBranch({
    repo: bare,
    branch: 'gh-pages',
    dir: 'benchmarks',
    workDir,
    entries: entriesFromResult(result(at)),
    render: timed
  })
  const seconds = (performance.now() - t0) / 1000
  delete process.env.GIT_TRACE2_EVENT
  const git = gitProcesses(trace)
  const took =
    `${seconds.toFixed(2)} s (README and charts ${(rendering / 1000).toFixed(2)} s, ` +
    `fetches ${git.fetchSeconds.toFixed(2)} s, beyond the fetches ${(seconds - git.fetchSeconds).toFixed(2)} s)`
  const fetched = received(work, workPacks, workObjects)
  const pushed = received(bare, packsBefore, remoteObjects)
  const changed = sh(bare, 'diff-tree', '-r', '--name-only', `${out.commit}^`, out.commit!)
    .trim()
    .split('\n')
  console.log(
    `${label}: ${took}, ${out.attempts} attempt(s), ${git.summary}; fetched ${kb(total(fetched))}, ` +
      `pushed ${kb(total(pushed))}, remote grew ${kb(objectBytes(path.join(bare, 'objects')) - remoteBefore)}; ` +
      `${changed.length} files changed`
  )
  if (fetched.size > 0) {
    // What was fetched, by kind: objects of the tip the append started from.
    console.log(`  fetched by kind: ${byKind(kindsAt(bare, `${out.commit}^`), fetched)}`)
  }
  console.log(
    `  pushed by kind (as stored in the remote's pack): ${pushedByKind(bare, out.commit!)}`
  )
  return out
}

/**
 * What the new objects of a commit cost in the remote's packs, grouped: trees, and files by their
 * folder in the history directory (entries, index, data, charts, README.md, …).
 */
function pushedByKind(bare: string, commit: string): string {
  const rows = sh(bare, 'diff-tree', '-r', '-t', '--no-renames', `${commit}^`, commit)
    .trim()
    .split('\n')
    .map(line => {
      const [meta, file] = line.split('\t')
      const [, , , oid, status] = meta.split(' ')
      return { oid, file, status }
    })
    .filter(r => r.status !== 'D')
  const oids = `${rows.map(r => r.oid).join('\n')}\n`
  const sizes = shInput(bare, oids, 'cat-file', '--batch-check=%(objecttype) %(objectsize:disk)')
    .trim()
    .split('\n')
  const groups = new Map<string, number>()
  rows.forEach((r, i) => {
    const [type, disk] = sizes[i].split(' ')
    const kind = type === 'tree' ? 'trees' : (r.file.split('/')[1] ?? r.file)
    groups.set(kind, (groups.get(kind) ?? 0) + Number(disk))
  })
  return [...groups]
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${k} ${kb(n)}`)
    .join(', ')
}

async function main(): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'history-bench-'))
  try {
    console.log(load())
    const { bare, end } = seed(tmp, ENTRIES)
    const hook = renderHook({ template: null, maxEntries: 50 })
    // The write without the report: entries, index and dashboard data.
    const dataOnly: Render = { ...hook, recent: 0, report: async () => new Map() }
    const next = (n: number) => new Date(end.getTime() + n * STEP_MS)

    await append(
      bare,
      path.join(tmp, 'first'),
      next(1),
      hook,
      'first append (indexes the branch once: full read)'
    )
    await append(bare, path.join(tmp, 'cold'), next(2), hook, 'cold append with README/charts')
    await append(bare, path.join(tmp, 'cold'), next(3), hook, 'warm append with README/charts')
    await append(
      bare,
      path.join(tmp, 'cold-data'),
      next(4),
      dataOnly,
      'cold append, entries + index + dashboard data'
    )
    await append(
      bare,
      path.join(tmp, 'cold-data'),
      next(5),
      dataOnly,
      'warm append, entries + index + dashboard data'
    )
    // What a run that records checks before anything starts: the names, that the remote
    // answers, and the branch read as the append reads it (cold, as on Actions).
    const times: number[] = []
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now()
      await checkBranchNames('gh-pages', 'benchmarks')
      await checkReachable(bare)
      await checkBranchWritable({ repo: bare, branch: 'gh-pages', dir: 'benchmarks' })
      times.push((performance.now() - t0) / 1000)
    }
    times.sort((a, b) => a - b)
    console.log(
      `pre-flight of a recording run (names, ls-remote, the branch read as an append reads it), cold, 5 times: median ${times[2].toFixed(2)} s, max ${times[4].toFixed(2)} s`
    )
    console.log(load())
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true })
  }
}

main().catch(err => {
  console.error(err)
  process.exit(1)
})
