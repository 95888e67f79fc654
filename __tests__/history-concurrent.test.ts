import { spawn } from 'node:child_process'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { buildSync } from 'esbuild'
import { entriesFromResult } from '../src/history/from-result'
import { readHistory } from '../src/history/read'
import { git, initBare, lsTree, show } from './fixtures/history/git'
import { makeResult } from './fixtures/history/result'

let tmp: string
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'history-concurrent-'))
})
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }))

interface WriterOutcome {
  code: number | null
  stdout: string
  stderr: string
}

function runWriter(script: string, args: string[]): Promise<WriterOutcome> {
  return new Promise(resolve => {
    const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', d => (stdout += d))
    child.stderr.on('data', d => (stderr += d))
    child.on('close', code => resolve({ code, stdout, stderr }))
  })
}

test('8 writers in separate processes and clones append concurrently at the default retry settings: every entry lands exactly once', async () => {
  const script = path.join(tmp, 'writer.js')
  buildSync({
    entryPoints: [path.join(__dirname, 'fixtures/history/writer.ts')],
    bundle: true,
    platform: 'node',
    outfile: script,
    logLevel: 'error'
  })
  const bare = initBare(path.join(tmp, 'remote.git'))
  // Every writer also appends one shared entry: idempotence across writers keeps a single copy.
  const shared = entriesFromResult(makeResult({ sha: '5'.repeat(40) }))[0]
  const own = Array.from({ length: 8 }, (_, i) =>
    entriesFromResult(makeResult({ sha: String(i).repeat(40) }))
  )
  const outcomes = await Promise.all(
    own.map((entries, i) => {
      const file = path.join(tmp, `entries-${i}.json`)
      fs.writeFileSync(file, JSON.stringify([...entries, shared]))
      return runWriter(script, [bare, path.join(tmp, `clone-${i}`), file])
    })
  )
  for (const o of outcomes) {
    expect(o.code).toBe(0)
    // Nothing but the attempt log: each retry names git's reason.
    for (const line of o.stderr.split('\n').filter(Boolean)) {
      expect(line).toMatch(
        /^history: (push to gh-pages rejected at attempt \d+ \(.*(rejected|lock|remote ref does not exist).*\); retrying|landed on gh-pages at attempt|README and charts left to the writer|parked \d+ entries at refs\/gnes-bench\/pending\/gh-pages\/benchmarks\/[0-9a-f-]+ until they are folded into gh-pages$|entries folded into gh-pages by another writer$)/
      )
    }
  }
  const results = outcomes.map(o => JSON.parse(o.stdout) as { attempts: number; added: string[] })

  const expected = [...own.flat().map(e => e.id), shared.id].sort()
  // Each writer reports its own entries added; the shared one by every writer that carried it
  // onto the branch (parked on its pending ref, or in its own commit), at least one.
  own.forEach((entries, i) =>
    expect(results[i].added.filter(id => id !== shared.id).sort()).toEqual(
      entries.map(e => e.id).sort()
    )
  )
  expect(results.filter(r => r.added.includes(shared.id)).length).toBeGreaterThanOrEqual(1)
  // Commits add entries (one writer's, or several folded from pending refs) or render the
  // README; no pending ref is left: every one was folded and deleted by the push that folded it.
  const subjects = git(bare, 'log', '--format=%s', 'gh-pages').trim().split('\n')
  const adding = subjects.filter(s => s.startsWith('history: add'))
  expect(adding.length).toBeGreaterThanOrEqual(1)
  expect(adding.length).toBeLessThanOrEqual(8)
  expect(
    subjects
      .filter(s => !s.startsWith('history: add'))
      .every(s => s === 'history: render the report')
  ).toBe(true)
  // No pending ref is left, and the known ref is where the last push left the branch.
  expect(git(bare, 'for-each-ref', 'refs/gnes-bench/pending').trim()).toBe('')
  expect(git(bare, 'rev-parse', 'refs/gnes-bench/known/gh-pages/benchmarks/tip').trim()).toBe(
    git(bare, 'rev-parse', 'gh-pages').trim()
  )
  expect(lsTree(bare, 'gh-pages').filter(f => f.startsWith('benchmarks/entries/'))).toHaveLength(
    expected.length
  )

  const check = path.join(tmp, 'check')
  git(tmp, 'clone', '-q', '-b', 'gh-pages', bare, check)
  expect(
    readHistory(path.join(check, 'benchmarks'))
      .map(e => e.id)
      .sort()
  ).toEqual(expected)
  expect(show(bare, 'gh-pages', 'benchmarks/README.md').trim().split('\n').sort()).toEqual(
    expected.map(id => `- ${id}`)
  )
  // The dashboard data, merged per case and month under contention, lists every entry once.
  const data = lsTree(bare, 'gh-pages').filter(f => f.startsWith('benchmarks/data/'))
  expect(data.flatMap(f => show(bare, 'gh-pages', f).trim().split('\n')).sort()).toEqual(expected)
  // Contention really happened: some writer was rejected, parked its entries and saw them folded.
  expect(results.reduce((n, r) => n + r.attempts, 0)).toBeGreaterThan(8)
  expect(outcomes.some(o => /parked \d+ entries/.test(o.stderr))).toBe(true)
})
