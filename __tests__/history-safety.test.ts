import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { flagLocation } from '../src/commands/history-flags'
import { importLegacyCommand } from '../src/commands/import-legacy'
import { pruneCommand } from '../src/commands/prune'
import { compareCommand } from '../src/commands/compare'
import { appendToBranch } from '../src/history/branch-store'
import { HistoryError } from '../src/history/errors'
import { entriesFromResult } from '../src/history/from-result'
import { earlierEntryPaths, entryPath, monthDir, monthOf } from '../src/history/layout'
import { importLegacy } from '../src/history/legacy'
import { readHistory } from '../src/history/read'
import { writeEntryFiles } from '../src/history/dir-store'
import { describeLocation } from '../src/pipeline'
import { git, initBare, lsTree, seedMain, show, treeHash } from './fixtures/history/git'
import { listRender } from './fixtures/history/render'
import { makeResult } from './fixtures/history/result'

let tmp: string
let bare: string
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'history-safety-'))
  bare = initBare(path.join(tmp, 'remote.git'))
})
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }))

const target = { branch: 'gh-pages', dir: 'benchmarks', render: listRender }
const entryFiles = (ref = 'gh-pages') =>
  lsTree(bare, ref).filter(f => f.startsWith('benchmarks/entries/'))

/** A clone of gh-pages to edit by hand, as a maintainer (or a force-push) would. */
function handEdit(edit: (dir: string) => void, message = 'hand edit'): void {
  const scratch = path.join(tmp, `pages-${Date.now()}`)
  git(tmp, 'clone', '-q', '-b', 'gh-pages', bare, scratch)
  edit(scratch)
  git(scratch, 'add', '-A', '-f')
  git(scratch, 'commit', '-qm', message)
  git(scratch, 'push', '-q', '-f', 'origin', 'gh-pages')
}

test('ignore rules on the branch and in the global git config cannot drop an entry', async () => {
  // The user's global ignore file (git reads $XDG_CONFIG_HOME/git/ignore) ignores every JSON file.
  const xdg = path.join(tmp, 'xdg')
  fs.mkdirSync(path.join(xdg, 'git'), { recursive: true })
  fs.writeFileSync(path.join(xdg, 'git', 'ignore'), '*.json\n')
  const saved = process.env.XDG_CONFIG_HOME
  process.env.XDG_CONFIG_HOME = xdg
  try {
    const first = entriesFromResult(makeResult())
    await appendToBranch({ ...target, repo: bare, entries: first })
    handEdit(dir => fs.writeFileSync(path.join(dir, '.gitignore'), '*.json\nentries/\nindex/\n'))
    const second = entriesFromResult(makeResult({ sha: 'b'.repeat(40) }))
    const out = await appendToBranch({ ...target, repo: bare, entries: second })
    expect(out.added).toEqual(second.map(e => e.id))
    expect(entryFiles().sort()).toEqual(
      [...first, ...second].map(e => `benchmarks/${entryPath(e)}`).sort()
    )

    // The full path (a branch written by an earlier version: entries, no index) stages with -f too.
    handEdit(dir => fs.rmSync(path.join(dir, 'benchmarks', 'index'), { recursive: true }))
    const third = entriesFromResult(makeResult({ sha: 'c'.repeat(40) }))
    await appendToBranch({ ...target, repo: bare, entries: third })
    expect(entryFiles()).toHaveLength(6)
    expect(lsTree(bare, 'gh-pages')).toContain('benchmarks/index/1.json')
  } finally {
    if (saved === undefined) delete process.env.XDG_CONFIG_HOME
    else process.env.XDG_CONFIG_HOME = saved
  }
})

test('entries removed behind the index are named in a loud warning at every append, and stay in the dashboard data', async () => {
  const kept = entriesFromResult(makeResult())
  const lost = entriesFromResult(makeResult({ sha: 'd'.repeat(40) }))
  await appendToBranch({ ...target, repo: bare, entries: [...kept, ...lost] })
  handEdit(dir => {
    for (const e of lost) fs.rmSync(path.join(dir, 'benchmarks', entryPath(e)))
  }, 'rewrite gh-pages')

  for (const sha of ['e', 'f']) {
    const log: string[] = []
    const more = entriesFromResult(makeResult({ sha: sha.repeat(40) }))
    const out = await appendToBranch({
      ...target,
      repo: bare,
      entries: more,
      log: l => log.push(l)
    })
    expect(out.added).toEqual(more.map(e => e.id))
    expect(out.missing.sort()).toEqual(lost.map(e => e.id).sort())
    expect(log).toHaveLength(1)
    expect(log[0]).toMatch(/^WARNING: gh-pages:benchmarks lacks 2 entries its index lists: /)
    for (const e of lost) expect(log[0]).toContain(e.id)
  }
  // The index still expects them, and the dashboard data still shows them.
  const month = monthOf(lost[0].timestampEval)
  const index = JSON.parse(show(bare, 'gh-pages', `benchmarks/index/1/${monthDir(month)}.json`))
  expect(Object.values(index.entries)).toContain(lost[0].id)
  expect(JSON.parse(show(bare, 'gh-pages', 'benchmarks/index/1.json'))).toMatchObject({
    entries: 4,
    missing: 1
  })
  expect(show(bare, 'gh-pages', `benchmarks/data/1/${month}.txt`)).toContain(lost[0].id)
})

test('an entry put by hand outside the layout (under its year, no decade) stops the append, naming the directory', async () => {
  const [e, ...rest] = entriesFromResult(makeResult())
  await appendToBranch({ ...target, repo: bare, entries: [e, ...rest] })
  handEdit(dir => {
    const earlier = path.join(dir, 'benchmarks', earlierEntryPaths(e)[0])
    fs.mkdirSync(path.dirname(earlier), { recursive: true })
    fs.renameSync(path.join(dir, 'benchmarks', entryPath(e)), earlier)
  }, 'move an entry by hand')
  const before = treeHash(bare)
  const attempt = appendToBranch({
    ...target,
    repo: bare,
    entries: entriesFromResult(makeResult({ sha: 'e'.repeat(40) }))
  })
  await expect(attempt).rejects.toThrow(HistoryError)
  const year = monthOf(e.timestampEval).slice(0, 4)
  await expect(attempt).rejects.toThrow(
    `gh-pages:benchmarks/entries/${e.caseId}/${year}: is not a decade directory (the history is stored as <case>/<DDD0>s/<YYYY>/<MM>/)`
  )
  expect(treeHash(bare)).toBe(before)
})

test('a stale lock in the remote: each attempt is logged, and the error says git’s reason', async () => {
  await appendToBranch({ ...target, repo: bare, entries: entriesFromResult(makeResult()) })
  fs.writeFileSync(path.join(bare, 'refs', 'heads', 'gh-pages.lock'), '')
  const log: string[] = []
  const attempt = appendToBranch({
    ...target,
    repo: bare,
    entries: entriesFromResult(makeResult({ sha: '9'.repeat(40) })),
    retryForMs: 3000,
    log: l => log.push(l)
  })
  await expect(attempt).rejects.toThrow(
    /push to gh-pages failed \d+ times over \d+ s; giving up\. git said: .*cannot lock ref 'refs\/heads\/gh-pages'.*gh-pages\.lock.*File exists/
  )
  expect(log.length).toBeGreaterThan(0)
  expect(log[0]).toMatch(/^history: push to gh-pages rejected at attempt 1 \(.*cannot lock ref/)
})

test('a remote without partial fetch support gets the same append, from whole trees', async () => {
  const plain = initBare(path.join(tmp, 'plain.git'), { filters: false })
  const first = entriesFromResult(makeResult())
  const second = entriesFromResult(makeResult({ sha: '7'.repeat(40) }))
  await appendToBranch({ ...target, repo: plain, entries: first })
  const out = await appendToBranch({ ...target, repo: plain, entries: [...first, ...second] })
  expect(out).toMatchObject({ added: second.map(e => e.id), present: first.map(e => e.id) })
  expect(show(plain, 'gh-pages', 'benchmarks/README.md').trim().split('\n')).toHaveLength(4)
})

test('a branch that holds no history is written only when adopted', async () => {
  seedMain(bare, path.join(tmp, 'seed'))
  const before = treeHash(bare)
  const entries = entriesFromResult(makeResult())
  await expect(appendToBranch({ ...target, branch: 'main', repo: bare, entries })).rejects.toThrow(
    /branch 'main' of .* exists but holds no history in 'benchmarks'.*--adopt-branch/
  )
  const args = {
    from: path.join(__dirname, 'fixtures/legacy'),
    'history-repository': bare,
    'gh-pages-branch': 'main'
  }
  await expect(importLegacyCommand.run(args, [])).rejects.toThrow(/holds no history/)
  expect(treeHash(bare)).toBe(before)

  const out = await appendToBranch({ ...target, branch: 'main', repo: bare, entries, adopt: true })
  expect(out.pushed).toBe(true)
  expect(lsTree(bare, 'main')).toEqual(
    expect.arrayContaining(['README.md', 'benchmarks/index/1.json'])
  )
  // Once it holds a history, it is a history branch.
  const more = entriesFromResult(makeResult({ sha: '8'.repeat(40) }))
  await appendToBranch({ ...target, branch: 'main', repo: bare, entries: more })
})

test('a repository value git would take as an option is refused, and runs nothing', async () => {
  const marker = path.join(tmp, 'pwned')
  const entries = entriesFromResult(makeResult())
  for (const repo of [`--upload-pack=touch ${marker}`, `ext::sh -c touch% ${marker}`]) {
    await expect(appendToBranch({ ...target, repo, entries })).rejects.toThrow(
      /is not a repository path or URL/
    )
    await expect(
      importLegacyCommand.run(
        { from: path.join(__dirname, 'fixtures/legacy'), 'history-repository': repo },
        []
      )
    ).rejects.toThrow(/is not a repository path or URL/)
  }
  expect(fs.existsSync(marker)).toBe(false)
})

test('a token inside a repository URL is never printed back', async () => {
  const url = 'http://x-access-token:ghs_SECRET123@127.0.0.1:9/o/r.git'
  expect(describeLocation({ kind: 'branch', repo: url, branch: 'gh-pages', dir: 'b' })).toBe(
    'http://***@127.0.0.1:9/o/r.git gh-pages:b'
  )
  const attempt = appendToBranch({ ...target, repo: url, entries: entriesFromResult(makeResult()) })
  await expect(attempt).rejects.toThrow(/git fetch failed/)
  await expect(attempt).rejects.not.toThrow(/SECRET/)
})

test('the CLI takes the token from GITHUB_TOKEN when no flag gives one', () => {
  const saved = process.env.GITHUB_TOKEN
  process.env.GITHUB_TOKEN = 'from-env'
  try {
    expect(flagLocation({ 'history-repository': bare })).toMatchObject({ token: 'from-env' })
    expect(flagLocation({ 'history-repository': bare, 'github-token': 'from-flag' })).toMatchObject(
      { token: 'from-flag' }
    )
  } finally {
    if (saved === undefined) delete process.env.GITHUB_TOKEN
    else process.env.GITHUB_TOKEN = saved
  }
})

test('a symbolic link in a history is an error and its target is never read', async () => {
  const dir = path.join(tmp, 'history')
  const [entry] = entriesFromResult(makeResult())
  writeEntryFiles(dir, [entry])
  const secret = path.join(tmp, 'secret.json')
  fs.writeFileSync(secret, JSON.stringify(entry))
  const link = path.join(dir, 'entries', '1', 'linked.json')
  fs.symlinkSync(secret, link)
  expect(() => readHistory(dir)).toThrow(HistoryError)
  expect(() => readHistory(dir)).toThrow(`${dir}/entries/1/linked.json: is a symbolic link`)

  // On a branch, a committed link is refused the same way.
  await appendToBranch({ ...target, repo: bare, entries: [entry] })
  const month = path.posix.dirname(entryPath(entry))
  handEdit(d => fs.symlinkSync('/etc/passwd', path.join(d, 'benchmarks', month, 'x.json')))
  const more = entriesFromResult(makeResult({ sha: '6'.repeat(40) }))
  await expect(appendToBranch({ ...target, repo: bare, entries: more })).rejects.toThrow(
    `gh-pages:benchmarks/${month}/x.json: is not a plain file`
  )
})

test('prune and compare refuse a --history-dir that does not exist', async () => {
  const nowhere = path.join(tmp, 'nowhere')
  await expect(pruneCommand.run({ 'history-dir': nowhere, keep: '1' }, [])).rejects.toThrow(
    `--history-dir ${nowhere}: no such directory`
  )
  const result = path.join(tmp, 'result.json')
  fs.writeFileSync(result, JSON.stringify(makeResult()))
  await expect(compareCommand.run({ result, 'history-dir': nowhere }, [])).rejects.toThrow(
    `--history-dir ${nowhere}: no such directory`
  )
  expect(fs.existsSync(nowhere)).toBe(false)
})

test('a legacy timestamp no date can hold names the file and line', () => {
  const file = path.join(tmp, 'history1.jsonl')
  const line = fs
    .readFileSync(path.join(__dirname, 'fixtures/legacy/history1.jsonl'), 'utf8')
    .split('\n')[0]
  fs.writeFileSync(
    file,
    `${line}\n${line.replace(/"timestamp_eval": [\d.]+/, '"timestamp_eval": 1e20')}\n`
  )
  expect(() => importLegacy(file.replace(/history1\.jsonl$/, ''))).toThrow(
    `${file}:2: cannot convert: timestamp_eval 100000000000000000000 is not`
  )
})
