import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { appendToBranch, pruneBranch, readBranchHistory } from '../src/history/branch-store'
import { HistoryError } from '../src/history/errors'
import { entriesFromResult } from '../src/history/from-result'
import { earlierEntryPaths, entryPath } from '../src/site/layout'
import { git, initBare, lsTree, seedMain, show, treeHash } from './fixtures/history/git'
import { makeResult } from './fixtures/history/result'
import { listRender } from './fixtures/history/render'
import { branchTarget as target } from './helpers/history'

let tmp: string
let bare: string
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'history-branch-'))
  bare = initBare(path.join(tmp, 'remote.git'))
  seedMain(bare, path.join(tmp, 'seed'))
})
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }))

test('first run creates gh-pages as an orphan branch holding the entries and the render', async () => {
  const entries = entriesFromResult(makeResult())
  expect(await readBranchHistory({ ...target, repo: bare })).toEqual([])
  const out = await appendToBranch({ ...target, repo: bare, entries })
  expect(await readBranchHistory({ ...target, repo: bare })).toEqual(entries)
  expect(out).toMatchObject({ pushed: true, attempts: 1, added: entries.map(e => e.id) })
  expect(git(bare, 'rev-parse', 'gh-pages').trim()).toBe(out.commit)
  expect(git(bare, 'rev-list', '--count', 'gh-pages').trim()).toBe('1')
  expect(lsTree(bare, 'gh-pages').sort()).toEqual(
    [
      'benchmarks/README.md',
      ...entries.map(e => `benchmarks/${entryPath(e)}`),
      // The render hook's dashboard data, and the index, one file per case and per case-month.
      'benchmarks/data/1/2020s/2026/11.js',
      'benchmarks/data/3/2020s/2026/11.js',
      'benchmarks/index/1.json',
      'benchmarks/index/1/2020s/2026/11.json',
      'benchmarks/index/3.json',
      'benchmarks/index/3/2020s/2026/11.json'
    ].sort()
  )
  expect(show(bare, 'gh-pages', 'benchmarks/data/1/2020s/2026/11.js')).toBe(`${entries[0].id}\n`)
  // The month index lists the entry and holds its summary: what README and dashboard data read.
  const file = path.posix.basename(entryPath(entries[0]))
  expect(JSON.parse(show(bare, 'gh-pages', 'benchmarks/index/1/2020s/2026/11.json'))).toEqual({
    schema: 'gnes-latency-bench/history-index@3',
    caseId: '1',
    month: '2026-11',
    tree: git(bare, 'rev-parse', 'gh-pages:benchmarks/entries/1/2020s/2026/11').trim(),
    entries: { [file]: entries[0].id },
    // The summary: no samples or runs, its figures rounded to microseconds (the dashboard's).
    summaries: { [file]: { ...entries[0], samples: null, runs: [], legacyMBps: 4545.454545 } }
  })
  expect(JSON.parse(show(bare, 'gh-pages', `benchmarks/${entryPath(entries[0])}`))).toEqual(
    entries[0]
  )
  expect(git(bare, 'log', '-1', '--format=%s%n%an', 'gh-pages')).toBe(
    'history: add cases 1,3 of 0123456 (refs/heads/main) [2 entries]\ngithub-actions[bot]\n'
  )
  expect(lsTree(bare, 'main')).toEqual(['README.md'])
})

test('appends to an existing branch in one commit, keeps files it does not own, and is idempotent', async () => {
  const first = entriesFromResult(makeResult())
  const one = await appendToBranch({ ...target, repo: bare, entries: first })
  const scratch = path.join(tmp, 'pages')
  git(tmp, 'clone', '-q', '-b', 'gh-pages', bare, scratch)
  fs.writeFileSync(path.join(scratch, 'index.html'), '<p>dashboard</p>')
  git(scratch, 'add', '.')
  git(scratch, 'commit', '-qm', 'dashboard')
  git(scratch, 'push', '-q', 'origin', 'gh-pages')
  const dashboard = git(scratch, 'rev-parse', 'HEAD').trim()
  expect(git(scratch, 'rev-parse', 'HEAD^').trim()).toBe(one.commit)

  const second = entriesFromResult(makeResult({ sha: 'fedcba9876543210fedcba9876543210fedcba98' }))
  const workDir = path.join(tmp, 'work')
  const two = await appendToBranch({
    ...target,
    repo: bare,
    workDir,
    entries: [...first, ...second]
  })
  expect(two.added).toEqual(second.map(e => e.id))
  expect(two.present).toEqual(first.map(e => e.id))
  expect(git(bare, 'rev-list', '--count', 'gh-pages').trim()).toBe('3')
  expect(git(bare, 'rev-parse', `${two.commit}^`).trim()).toBe(dashboard)
  const files = lsTree(bare, 'gh-pages')
  expect(files).toContain('index.html')
  expect(files.filter(f => f.startsWith('benchmarks/entries/'))).toHaveLength(4)
  expect(show(bare, 'gh-pages', 'benchmarks/README.md').trim().split('\n')).toHaveLength(4)
  // Two entries, README, and per case its data file, month index and case index.
  expect(git(bare, 'show', '--stat', '--format=', 'gh-pages')).toMatch(/9 files changed/)

  const again = await appendToBranch({ ...target, repo: bare, workDir, entries: second })
  expect(again).toMatchObject({ pushed: false, commit: two.commit, added: [] })
  expect(git(bare, 'rev-parse', 'gh-pages').trim()).toBe(two.commit)
})

test('an append renders from the index summaries: a fresh clone fetches none of the stored entries', async () => {
  const first = entriesFromResult(makeResult())
  await appendToBranch({ ...target, repo: bare, entries: first })
  const second = entriesFromResult(makeResult({ sha: 'fedcba9876543210fedcba9876543210fedcba98' }))
  const workDir = path.join(tmp, 'fresh')
  await appendToBranch({ ...target, repo: bare, workDir, entries: second })
  // The README lists all four entries, yet the clone holds none of the first two entry files.
  expect(show(bare, 'gh-pages', 'benchmarks/README.md').trim().split('\n')).toHaveLength(4)
  const local = git(workDir, 'cat-file', '--batch-all-objects', '--batch-check=%(objectname)')
  for (const e of first) {
    const blob = git(bare, 'rev-parse', `gh-pages:benchmarks/${entryPath(e)}`).trim()
    expect(local).not.toContain(blob)
  }
})

test.each([
  ['years without a decade level, history-index@2', 0, 2],
  ['months without a year level, history-index@1', 1, 1]
])(
  'a branch of an earlier layout (%s) is moved and rebuilt once from every entry',
  async (_, layout, version) => {
    const first = entriesFromResult(makeResult())
    await appendToBranch({ ...target, repo: bare, entries: first })
    const scratch = path.join(tmp, 'pages')
    git(tmp, 'clone', '-q', '-b', 'gh-pages', bare, scratch)
    const history = path.join(scratch, 'benchmarks')
    for (const e of first) {
      const earlier = path.join(history, earlierEntryPaths(e)[layout])
      fs.mkdirSync(path.dirname(earlier), { recursive: true })
      fs.renameSync(path.join(history, entryPath(e)), earlier)
    }
    const indexDir = path.join(history, 'index')
    for (const rel of fs.readdirSync(indexDir, { recursive: true }) as string[]) {
      const file = path.join(indexDir, rel)
      if (!fs.statSync(file).isFile()) continue
      const index = JSON.parse(fs.readFileSync(file, 'utf8'))
      if (version === 1) {
        delete index.summaries
        delete index.months
      }
      index.schema = `gnes-latency-bench/history-index@${version}`
      fs.writeFileSync(file, `${JSON.stringify(index)}\n`)
    }
    git(scratch, 'add', '-A')
    git(scratch, 'commit', '-qm', 'the layout and index of the previous version')
    git(scratch, 'push', '-q', 'origin', 'gh-pages')

    const second = entriesFromResult(
      makeResult({ sha: 'fedcba9876543210fedcba9876543210fedcba98' })
    )
    const out = await appendToBranch({ ...target, repo: bare, entries: second })
    expect(out.added).toEqual(second.map(e => e.id))
    const all = [...first, ...second]
    expect(
      lsTree(bare, 'gh-pages')
        .filter(f => f.startsWith('benchmarks/entries/'))
        .sort()
    ).toEqual(all.map(e => `benchmarks/${entryPath(e)}`).sort())
    const index = JSON.parse(show(bare, 'gh-pages', 'benchmarks/index/1/2020s/2026/11.json'))
    expect(index.schema).toBe('gnes-latency-bench/history-index@3')
    const case1 = all.filter(e => e.caseId === '1')
    expect(
      Object.values(index.summaries as Record<string, { id: string }>)
        .map(x => x.id)
        .sort()
    ).toEqual(case1.map(e => e.id).sort())
    expect(JSON.parse(show(bare, 'gh-pages', 'benchmarks/index/1.json')).months).toEqual([
      '2026-11'
    ])
    expect(show(bare, 'gh-pages', 'benchmarks/README.md').trim().split('\n')).toHaveLength(4)
  }
)

test('a corrupt history file stops the append and leaves the remote byte-for-byte unchanged', async () => {
  const first = entriesFromResult(makeResult())
  await appendToBranch({ ...target, repo: bare, entries: first })
  const scratch = path.join(tmp, 'pages')
  git(tmp, 'clone', '-q', '-b', 'gh-pages', bare, scratch)
  const victim = `benchmarks/${entryPath(first[1])}`
  fs.writeFileSync(path.join(scratch, victim), '{"schema": "gnes-latency-bench/history@1", "id": ')
  git(scratch, 'commit', '-qam', 'oops')
  git(scratch, 'push', '-q', 'origin', 'gh-pages')
  const before = treeHash(bare)

  const rendered = jest.fn(listRender.report)
  const attempt = appendToBranch({
    ...target,
    render: { ...listRender, report: rendered },
    repo: bare,
    entries: entriesFromResult(makeResult())
  })
  await expect(attempt).rejects.toThrow(HistoryError)
  await expect(attempt).rejects.toThrow(`gh-pages:${victim}: not valid JSON`)
  expect(rendered).not.toHaveBeenCalled()
  await expect(readBranchHistory({ ...target, repo: bare })).rejects.toThrow(
    `gh-pages:${victim}: not valid JSON`
  )
  expect(treeHash(bare)).toBe(before)
})

test('a failing render pushes nothing', async () => {
  const attempt = appendToBranch({
    ...target,
    repo: bare,
    entries: entriesFromResult(makeResult()),
    render: {
      ...listRender,
      report: async () => {
        throw new Error('template broke')
      }
    }
  })
  await expect(attempt).rejects.toThrow('template broke')
  expect(git(bare, 'branch', '--list', 'gh-pages')).toBe('')
})

test('prune deletes only what the rule selects, in one commit', async () => {
  const older = entriesFromResult(makeResult()).map(e => ({
    ...e,
    timestampEval: '2026-01-05T00:00:00Z'
  }))
  const newer = entriesFromResult(makeResult())
  await appendToBranch({ ...target, repo: bare, entries: [...older, ...newer] })
  const dry = await pruneBranch({ ...target, repo: bare, rule: { keep: 1 }, dryRun: true })
  expect(dry.pushed).toBe(false)
  expect(dry.removed.map(e => e.id).sort()).toEqual(older.map(e => e.id).sort())

  const out = await pruneBranch({ ...target, repo: bare, rule: { keep: 1 } })
  expect(out.pushed).toBe(true)
  const files = lsTree(bare, 'gh-pages')
  expect(files.filter(f => f.startsWith('benchmarks/entries/')).sort()).toEqual(
    newer.map(e => `benchmarks/${entryPath(e)}`).sort()
  )
  expect(files.some(f => f.includes('2026/01'))).toBe(false)
  expect(show(bare, 'gh-pages', 'benchmarks/README.md').trim().split('\n')).toHaveLength(2)
  expect(git(bare, 'log', '-1', '--format=%s', 'gh-pages')).toBe(
    'history: prune 2 entries of cases 1,3\n'
  )
})
