import { execFileSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { appendToBranch, readBranchHistory } from '../src/history/branch-store'
import { withClone } from '../src/store/clone'
import { entriesFromResult } from '../src/history/from-result'
import { entryPath } from '../src/site/layout'
import { parkEntries } from '../src/history/pending-entries'
import type { Render } from '../src/history/render-hook'
import type { HistoryEntry } from '../src/history/schema'
import { git, initBare, lsTree, show } from './fixtures/history/git'
import { makeResult } from './fixtures/history/result'
import { listRender } from './fixtures/history/render'
import { branchTarget as target } from './helpers/history'

let tmp: string
let bare: string
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'history-pending-'))
  bare = initBare(path.join(tmp, 'remote.git'))
})
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }))

const pendingRefs = () =>
  git(bare, 'for-each-ref', '--format=%(refname)', 'refs/gnes-bench/pending').trim()

/** A writer that parked its entries and died before they were folded into the branch. */
const park = (entries: ReturnType<typeof entriesFromResult>) =>
  withClone({ ...target, repo: bare }, clone =>
    parkEntries(clone, 'gh-pages', entries, 'a writer that died')
  )

test('entries parked by a writer that died are read with the branch, and folded (and their ref deleted) by the next append', async () => {
  const first = entriesFromResult(makeResult({ sha: '1'.repeat(40) }))
  const parked = entriesFromResult(makeResult({ sha: '2'.repeat(40) }))
  const next = entriesFromResult(makeResult({ sha: '3'.repeat(40) }))
  await appendToBranch({ ...target, repo: bare, entries: first })
  const { ref } = await park(parked)
  expect(ref).toMatch(/^refs\/gnes-bench\/pending\/gh-pages\/benchmarks\/[0-9a-f-]{36}$/)
  expect(pendingRefs()).toBe(ref)

  // Nothing is invisible while it waits: readers see the parked entries with the branch's.
  const read = (await readBranchHistory({ ...target, repo: bare })).map(e => e.id).sort()
  expect(read).toEqual([...first, ...parked].map(e => e.id).sort())

  const out = await appendToBranch({ ...target, repo: bare, entries: next })
  // The append reports its own entries; the parked ones land in the same commit, blob for blob.
  expect(out.added.sort()).toEqual(next.map(e => e.id).sort())
  expect(pendingRefs()).toBe('')
  const files = lsTree(bare, 'gh-pages')
  for (const e of [...first, ...parked, ...next]) {
    expect(files).toContain(`benchmarks/${entryPath(e)}`)
  }
  for (const e of parked) {
    expect(JSON.parse(show(bare, 'gh-pages', `benchmarks/${entryPath(e)}`))).toEqual(e)
  }
  expect(show(bare, 'gh-pages', 'benchmarks/README.md').trim().split('\n').sort()).toEqual(
    [...first, ...parked, ...next].map(e => `- ${e.id}`).sort()
  )
  expect(git(bare, 'log', '-1', '--format=%s', 'gh-pages')).toMatch(
    /^history: add cases 1,3 of 2 commits/
  )
  expect((await readBranchHistory({ ...target, repo: bare })).length).toBe(6)
})

test('a parked entry that does not validate stops the append, naming its ref; nothing is pushed', async () => {
  const first = entriesFromResult(makeResult({ sha: '1'.repeat(40) }))
  await appendToBranch({ ...target, repo: bare, entries: first })
  const blob = execFileSync('git', ['hash-object', '-w', '--stdin'], {
    cwd: bare,
    input: '{"not": "an entry"',
    encoding: 'utf8'
  }).trim()
  const tree = execTree(`100644 blob ${blob}\tbroken.json\n`)
  const commit = git(bare, 'commit-tree', tree, '-m', 'pending: broken').trim()
  git(bare, 'update-ref', 'refs/gnes-bench/pending/gh-pages/benchmarks/broken', commit)
  const before = git(bare, 'rev-parse', 'gh-pages').trim()
  await expect(
    appendToBranch({ ...target, repo: bare, entries: entriesFromResult(makeResult()) })
  ).rejects.toThrow(
    /refs\/gnes-bench\/pending\/gh-pages\/benchmarks\/broken:broken\.json: not valid JSON/
  )
  expect(git(bare, 'rev-parse', 'gh-pages').trim()).toBe(before)
})

const execTree = (listing: string): string =>
  execFileSync('git', ['mktree'], { cwd: bare, input: listing, encoding: 'utf8' }).trim()

/**
 * A render hook that lands another writer's entries on the branch while this append renders its
 * first attempt, so that attempt's push is rejected: contention without timing.
 */
function racing(theirs: ReturnType<typeof entriesFromResult>): Render {
  let raced = false
  return {
    ...listRender,
    async report(cases) {
      if (!raced) {
        raced = true
        await appendToBranch({ ...target, repo: bare, entries: theirs })
      }
      return listRender.report(cases)
    }
  }
}

/** Appends `ours` while `theirs` land first from inside its render: its first push is rejected. */
async function appendLosingOneRace(ours: HistoryEntry[], theirs: HistoryEntry[]) {
  const lines: string[] = []
  const out = await appendToBranch({
    ...target,
    repo: bare,
    entries: ours,
    render: racing(theirs),
    log: line => lines.push(line)
  })
  return { out, lines }
}

test('a writer whose push is rejected parks its entries, folds them on its retry, and leaves no pending ref', async () => {
  const first = entriesFromResult(makeResult({ sha: '1'.repeat(40) }))
  const theirs = entriesFromResult(makeResult({ sha: '2'.repeat(40) }))
  const ours = entriesFromResult(makeResult({ sha: '3'.repeat(40) }))
  await appendToBranch({ ...target, repo: bare, entries: first })
  const { out, lines } = await appendLosingOneRace(ours, theirs)
  expect(lines[0]).toMatch(
    /^history: push to gh-pages rejected at attempt 1 \(.*\[rejected\].*\); retrying in/
  )
  expect(lines[1]).toMatch(
    /^history: parked 2 entries at refs\/gnes-bench\/pending\/gh-pages\/benchmarks\/[0-9a-f-]{36} until they are folded into gh-pages$/
  )
  expect(out).toMatchObject({ pushed: true, attempts: 2 })
  expect(out.added.sort()).toEqual(ours.map(e => e.id).sort())
  expect(pendingRefs()).toBe('')
  // Landed on a retry: its commit, rendered on the new tip, carries the README with every entry.
  expect(git(bare, 'log', '-1', '--format=%s', 'gh-pages')).toMatch(
    /^history: add cases 1,3 of 3333333 /
  )
  expect(show(bare, 'gh-pages', 'benchmarks/README.md').trim().split('\n').sort()).toEqual(
    [...first, ...theirs, ...ours].map(e => `- ${e.id}`).sort()
  )
})

test('a retry whose report would show the same entries applies the report it rendered, without rendering again', async () => {
  const first = entriesFromResult(makeResult({ sha: '1'.repeat(40) }))
  const ours = entriesFromResult(makeResult({ sha: '3'.repeat(40) }))
  await appendToBranch({ ...target, repo: bare, entries: first })
  // While the first attempt renders, someone pushes a file beside the history: the push is
  // rejected, yet the entries the report shows are the same on the new tip.
  const report = jest.fn(async (cases: Parameters<Render['report']>[0]) => {
    if (report.mock.calls.length === 1) {
      const scratch = path.join(tmp, 'beside')
      git(tmp, 'clone', '-q', '-b', 'gh-pages', bare, scratch)
      fs.writeFileSync(path.join(scratch, 'index.html'), '<p>site</p>')
      git(scratch, 'add', '.')
      git(scratch, 'commit', '-qm', 'a page beside the history')
      git(scratch, 'push', '-q', 'origin', 'gh-pages')
    }
    return listRender.report(cases)
  })
  const out = await appendToBranch({
    ...target,
    repo: bare,
    entries: ours,
    render: { ...listRender, report },
    log: () => undefined
  })
  expect(out).toMatchObject({ pushed: true, attempts: 2 })
  expect(report).toHaveBeenCalledTimes(1)
  expect(lsTree(bare, 'gh-pages')).toContain('index.html')
  expect(show(bare, 'gh-pages', 'benchmarks/README.md').trim().split('\n').sort()).toEqual(
    [...first, ...ours].map(e => `- ${e.id}`).sort()
  )
})

test('a remote that refuses pending refs still gets the entries, by retrying the append', async () => {
  const hook = path.join(bare, 'hooks', 'update')
  fs.writeFileSync(
    hook,
    '#!/bin/sh\ncase "$1" in refs/gnes-bench/*) echo "no pending refs here" >&2; exit 1;; esac\n',
    { mode: 0o755 }
  )
  const theirs = entriesFromResult(makeResult({ sha: '2'.repeat(40) }))
  const ours = entriesFromResult(makeResult({ sha: '3'.repeat(40) }))
  await appendToBranch({ ...target, repo: bare, entries: entriesFromResult(makeResult()) })
  const { out, lines } = await appendLosingOneRace(ours, theirs)
  expect(lines[1]).toMatch(
    /^history: could not park the entries \(.*hook declined.*\); retrying the append$/
  )
  expect(out).toMatchObject({ pushed: true, attempts: 2 })
  expect(out.added.sort()).toEqual(ours.map(e => e.id).sort())
  for (const e of [...theirs, ...ours]) {
    expect(lsTree(bare, 'gh-pages')).toContain(`benchmarks/${entryPath(e)}`)
  }
  expect(pendingRefs()).toBe('')
})
