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
import { earlierEntryPaths, entryPath, monthDir, monthOf } from '../src/site/layout'
import { knownRef, refSegment } from '../src/store/ref-names'
import { checkBranchNames } from '../src/history/preflight'
import { InputError } from '../src/config/inputs'
import { importLegacy } from '../src/history/legacy'
import { readHistory } from '../src/history/read'
import { appendToDir, writeEntryFiles } from '../src/history/dir-store'
import { renderCommand } from '../src/commands/render'
import { describeLocation } from '../src/pipeline'
import { git, initBare, lsTree, seedMain, show, treeHash } from './fixtures/history/git'
import { branchTarget as target } from './helpers/history'
import { makeResult } from './fixtures/history/result'

let tmp: string
let bare: string
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'history-safety-'))
  bare = initBare(path.join(tmp, 'remote.git'))
})
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }))

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
  expect(show(bare, 'gh-pages', `benchmarks/data/1/${monthDir(month)}.js`)).toContain(lost[0].id)
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

describe('a force-push of the history branch', () => {
  const sha = (c: string) => c.repeat(40)
  /** Five results appended one commit at a time: the commit after each. */
  async function fiveAppends(): Promise<{ commits: string[]; ids: string[][] }> {
    const commits: string[] = []
    const ids: string[][] = []
    for (const c of ['1', '2', '3', '4', '5']) {
      const entries = entriesFromResult(makeResult({ sha: sha(c) }))
      const out = await appendToBranch({ ...target, repo: bare, entries })
      commits.push(out.commit!)
      ids.push(entries.map(e => e.id))
    }
    return { commits, ids }
  }
  const tip = () => git(bare, 'rev-parse', 'gh-pages').trim()
  const known = 'refs/gnes-bench/known/gh-pages/benchmarks/tip'
  const next = () => entriesFromResult(makeResult({ sha: sha('9') }))

  it('to an ancestor: the next append refuses, naming the lost entries and the commit that holds them; deleting the known ref accepts the loss', async () => {
    const { commits, ids } = await fiveAppends()
    expect(git(bare, 'rev-parse', known).trim()).toBe(commits[4])
    git(bare, 'update-ref', 'refs/heads/gh-pages', commits[1])
    const lost = [...ids[2], ...ids[3], ...ids[4]].sort()
    const refused = appendToBranch({ ...target, repo: bare, entries: next() })
    await expect(refused).rejects.toThrow(HistoryError)
    await expect(refused).rejects.toThrow(
      `gh-pages (now at ${commits[1]}) lacks 6 of the 10 entries it held at ${commits[4]}`
    )
    await expect(refused).rejects.toThrow(`Missing: ${lost.join(', ')}.`)
    await expect(refused).rejects.toThrow(`git push ${bare} --delete ${known}`)
    // Nothing was written, and prune (the full path) refuses alike.
    expect(tip()).toBe(commits[1])
    await expect(
      pruneCommand.run({ 'history-repository': bare, 'history-dir': 'benchmarks', keep: '1' }, [])
    ).rejects.toThrow(`lacks 6 of the 10 entries it held at ${commits[4]}`)
    expect(tip()).toBe(commits[1])

    // Restored as the message says: the entries are back, and the append goes on.
    const scratch = path.join(tmp, 'restore')
    git(tmp, 'clone', '-q', '-b', 'gh-pages', bare, scratch)
    git(scratch, 'fetch', '-q', bare, known)
    git(scratch, 'checkout', 'FETCH_HEAD', '--', 'benchmarks/entries')
    git(scratch, 'commit', '-qm', 'restore')
    git(scratch, 'push', '-q', 'origin', 'gh-pages')
    const out = await appendToBranch({ ...target, repo: bare, entries: next() })
    expect(out.added).toHaveLength(2)
    expect(entryFiles()).toHaveLength(12)

    // Rewound again, and the loss accepted: the known ref deleted, the append lands.
    git(bare, 'update-ref', 'refs/heads/gh-pages', commits[0])
    git(bare, 'update-ref', '-d', known)
    const accepted = await appendToBranch({ ...target, repo: bare, entries: next() })
    expect(accepted.added).toHaveLength(2)
    expect(entryFiles()).toHaveLength(4)
    expect(git(bare, 'rev-parse', known).trim()).toBe(tip())
  })

  it('to an unrelated history, or deleted: refuses, naming every entry; a rewrite that keeps every entry passes', async () => {
    const { commits, ids } = await fiveAppends()
    const other = initBare(path.join(tmp, 'other.git'))
    const foreign = entriesFromResult(makeResult({ sha: sha('f') }))
    await appendToBranch({ ...target, repo: other, entries: foreign })
    git(other, 'push', '-q', '-f', bare, 'gh-pages')
    const all = ids.flat().sort()
    await expect(appendToBranch({ ...target, repo: bare, entries: next() })).rejects.toThrow(
      `lacks 10 of the 10 entries it held at ${commits[4]}, the commit this tool last pushed there: it was force-pushed, rewound or replaced since. Refusing to write, so nothing more is lost. Missing: ${all.join(', ')}.`
    )
    git(bare, 'update-ref', '-d', 'refs/heads/gh-pages')
    await expect(appendToBranch({ ...target, repo: bare, entries: next() })).rejects.toThrow(
      `gh-pages, now deleted, lacks 10 of the 10 entries it held at ${commits[4]}`
    )
    // Squashed into one root commit with the same files: nothing lost, nothing said.
    const squash = git(bare, 'commit-tree', `${commits[4]}^{tree}`, '-m', 'squash').trim()
    git(bare, 'update-ref', 'refs/heads/gh-pages', squash)
    const out = await appendToBranch({ ...target, repo: bare, entries: next() })
    expect(out.added).toHaveLength(2)
    expect(entryFiles()).toHaveLength(12)
  })

  it('on a remote that refuses refs outside branches: the entries land, with a warning that the guard is off', async () => {
    const hook = path.join(bare, 'hooks', 'pre-receive')
    fs.writeFileSync(
      hook,
      '#!/bin/sh\nwhile read old new ref; do case "$ref" in refs/gnes-bench/known/*) echo "no refs of your own" >&2; exit 1;; esac; done\n'
    )
    fs.chmodSync(hook, 0o755)
    const lines: string[] = []
    const entries = entriesFromResult(makeResult())
    const out = await appendToBranch({ ...target, repo: bare, entries, log: l => lines.push(l) })
    expect(out.added).toEqual(entries.map(e => e.id))
    expect(entryFiles()).toHaveLength(2)
    expect(lines.join('\n')).toContain(
      `history: the remote refused ${known} (pre-receive hook declined): a force-push of gh-pages that loses entries will not be noticed`
    )
  })
})

describe('history directories below the branch root, and names git must take', () => {
  it.each(['bench/marks', '.', 'with space', 'ünïcødé/dir', 'd'.repeat(200), 'a.lock', 'x..y'])(
    'appends to %s, twice at once, with pending and known refs git takes',
    async dir => {
      await checkBranchNames('gh-pages', dir)
      const at = { ...target, dir, repo: bare, retryForMs: 60_000 }
      const [a, b] = [makeResult({ sha: 'a'.repeat(40) }), makeResult({ sha: 'b'.repeat(40) })]
      await Promise.all([
        appendToBranch({ ...at, entries: entriesFromResult(a) }),
        appendToBranch({ ...at, entries: entriesFromResult(b) })
      ])
      const prefix = dir === '.' ? '' : `${dir}/`
      const files = git(
        bare,
        '-c',
        'core.quotePath=false',
        'ls-tree',
        '-r',
        '--name-only',
        'gh-pages'
      )
        .split('\n')
        .filter(f => f.startsWith(`${prefix}entries/`))
      expect(files).toHaveLength(4)
      const refs = git(bare, 'for-each-ref', '--format=%(refname)', 'refs/gnes-bench/')
      expect(refs.trim().split('\n')).toEqual([knownRef('gh-pages', dir)])
      expect(git(bare, 'rev-parse', knownRef('gh-pages', dir)).trim()).toBe(
        git(bare, 'rev-parse', 'gh-pages').trim()
      )
    }
  )

  it('refuses, before anything starts, a branch git would not take and a directory outside the branch', async () => {
    await expect(checkBranchNames('gh pages', 'benchmarks')).rejects.toThrow(
      "input 'gh-pages-branch' = 'gh pages': gh-pages-branch is not a name git takes for a branch"
    )
    await expect(checkBranchNames('a..b', 'benchmarks')).rejects.toThrow(InputError)
    await expect(checkBranchNames('gh-pages', '../up')).rejects.toThrow(
      "input 'history-dir' = '../up': history-dir '../up' must be a path inside the branch"
    )
  })

  it('encodes a directory as one ref component, injectively', () => {
    expect(refSegment('benchmarks')).toBe('benchmarks')
    expect(refSegment('bench/marks')).toBe('bench%2Fmarks')
    expect(refSegment('.')).toBe('%2E')
    expect(refSegment('a.lock')).toBe('a%2Elock')
    expect(refSegment('x..y')).toBe('x.%2Ey')
    expect(refSegment('v1.2')).toBe('v1.2')
    expect(refSegment('a%2F')).toBe('a%252F')
    const names = ['a/b', 'a%2Fb', 'a.b', 'a%2Eb', '.a', 'a.', 'ü']
    expect(new Set(names.map(refSegment)).size).toBe(names.length)
  })
})

test('a linked subdirectory never carries a write out of the output or history directory', async () => {
  const elsewhere = path.join(tmp, 'elsewhere')
  fs.mkdirSync(elsewhere)
  const history = path.join(tmp, 'h')
  await appendToDir({ dir: history, entries: entriesFromResult(makeResult()) })

  // render --out rso, where rso/dashboard leads out.
  const rso = path.join(tmp, 'rso')
  fs.mkdirSync(rso)
  fs.symlinkSync('../elsewhere', path.join(rso, 'dashboard'))
  await expect(renderCommand.run({ 'history-dir': history, out: rso }, [])).rejects.toThrow(
    `a symbolic link on its way leads to ${fs.realpathSync(elsewhere)}, outside ${rso}`
  )
  // A history directory whose entries/1 leads out: the reader refuses it before anything.
  const hel = path.join(tmp, 'hel')
  fs.mkdirSync(path.join(hel, 'entries'), { recursive: true })
  fs.symlinkSync('../../elsewhere', path.join(hel, 'entries', '1'))
  await expect(
    appendToDir({ dir: hel, entries: entriesFromResult(makeResult({ sha: 'b'.repeat(40) })) })
  ).rejects.toThrow(`${hel}/entries/1: is a symbolic link`)
  // import-legacy into a history directory whose charts/ leads out.
  const hsl = path.join(tmp, 'hsl')
  fs.mkdirSync(hsl)
  fs.symlinkSync('../elsewhere', path.join(hsl, 'charts'))
  await expect(
    importLegacyCommand.run(
      { from: path.join(__dirname, 'fixtures', 'legacy'), 'history-dir': hsl },
      []
    )
  ).rejects.toThrow(`outside ${hsl}`)
  // A file that is itself a link is not written through.
  const site = path.join(tmp, 'site')
  fs.mkdirSync(path.join(site, 'charts'), { recursive: true })
  fs.symlinkSync(path.join(elsewhere, 'x.svg'), path.join(site, 'charts', 'case-1-roundtrip.svg'))
  await expect(renderCommand.run({ 'history-dir': history, out: site }, [])).rejects.toThrow(
    `refusing to write ${site}/charts/case-1-roundtrip.svg: it is a symbolic link`
  )
  expect(fs.readdirSync(elsewhere)).toEqual([])
  // The directory itself may be a link: writes land in it.
  const linked = path.join(tmp, 'linked-out')
  fs.symlinkSync(elsewhere, linked)
  expect(await renderCommand.run({ 'history-dir': history, out: linked }, [])).toBe(0)
  expect(fs.readdirSync(elsewhere)).toContain('README.md')
})
