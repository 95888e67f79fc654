/**
 * `record`: a result measured elsewhere joins the history as a recording run's result does (its
 * entries and the re-rendered report in one write, on a directory or on a branch of a real bare
 * remote), with a run's refusals; a bad result file is refused before anything is written.
 */
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { cli } from '../src/cli'
import { recordCommand } from '../src/commands/record'
import { readBranchHistory, readHistory } from '../src/history'
import type { Result } from '../src/result/schema'
import { git, initBare, lsTree, seedMain, show, treeHash } from './fixtures/history/git'
import { makeResult } from './fixtures/history/result'

let tmp: string
let logged: string[]
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-record-'))
  logged = []
  jest.spyOn(console, 'log').mockImplementation((line: string) => void logged.push(line))
})
afterEach(() => {
  jest.restoreAllMocks()
  fs.rmSync(tmp, { recursive: true, force: true })
})

/** A result file as a run elsewhere wrote it. */
function resultFile(result: Result | object, name = 'result.json'): string {
  const file = path.join(tmp, name)
  fs.writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`)
  return file
}

const record = (values: Record<string, string | boolean>) => recordCommand.run(values, [])

describe('into a history directory', () => {
  test('appends every entry of the file and renders the report beside them', async () => {
    const result = makeResult({ sha: 'c'.repeat(40) })
    const dir = path.join(tmp, 'history')
    expect(await record({ result: resultFile(result), 'history-dir': dir })).toBe(0)

    const stored = readHistory(dir)
    expect(stored.map(e => e.id).sort()).toEqual(
      result.cases.map(c => `${result.id}/${c.id}/burst`).sort()
    )
    for (const e of stored) {
      expect(e).toMatchObject({ resultId: result.id, commit: { sha: 'c'.repeat(40) } })
    }
    const readme = fs.readFileSync(path.join(dir, 'README.md'), 'utf8')
    expect(readme).toContain('c'.repeat(7))
    expect(fs.existsSync(path.join(dir, 'index.html'))).toBe(true)
    expect(logged.join('\n')).toContain(
      `history: 2 entries added to ${path.resolve(dir)} (2 in all)`
    )
  })

  test('the same file twice adds nothing and leaves the history as it was', async () => {
    const file = resultFile(makeResult())
    const dir = path.join(tmp, 'history')
    await record({ result: file, 'history-dir': dir })
    const before = treeHash(dir)
    expect(await record({ result: file, 'history-dir': dir })).toBe(0)
    expect(treeHash(dir)).toBe(before)
    expect(logged.at(-1)).toContain('0 entries added')
    expect(logged.at(-1)).toContain('2 entries of it stored already, left as they were')
  })

  test('--topology names cases the result must hold', async () => {
    const dir = path.join(tmp, 'history')
    await expect(
      record({ result: resultFile(makeResult()), 'history-dir': dir, topology: '1,2' })
    ).rejects.toThrow(/lacks case\(s\) 2: nothing recorded/)
    expect(fs.existsSync(dir)).toBe(false)
  })
})

describe('onto a branch of a bare remote', () => {
  test('one commit per recorded file, holding its entries and the report', async () => {
    const bare = initBare(path.join(tmp, 'remote.git'))
    const first = makeResult({ sha: 'd'.repeat(40) })
    const second = makeResult({ sha: 'e'.repeat(40) })
    const flags = { 'history-repository': bare }
    expect(await record({ ...flags, result: resultFile(first, 'first.json') })).toBe(0)
    expect(await record({ ...flags, result: resultFile(second, 'second.json') })).toBe(0)

    const commits = git(bare, 'log', '--format=%H', 'gh-pages').trim().split('\n')
    expect(commits).toHaveLength(2)
    // The second commit carries the second file's entries and the README that shows them.
    const changed = git(bare, 'show', '--name-only', '--format=', commits[0])
    expect(changed).toContain(second.id)
    expect(changed).toContain('benchmarks/README.md')
    expect(show(bare, 'gh-pages', 'benchmarks/README.md')).toContain('e'.repeat(7))

    const history = await readBranchHistory({ repo: bare, branch: 'gh-pages', dir: 'benchmarks' })
    expect(new Set(history.map(e => e.resultId))).toEqual(new Set([first.id, second.id]))
    expect(lsTree(bare, 'gh-pages')).toEqual(expect.arrayContaining(['benchmarks/index.html']))
  })

  test('a branch that holds no history is written only with --adopt-branch', async () => {
    const bare = initBare(path.join(tmp, 'remote.git'))
    seedMain(bare, path.join(tmp, 'seed'))
    const before = treeHash(bare)
    const flags = {
      result: resultFile(makeResult()),
      'history-repository': bare,
      'gh-pages-branch': 'main'
    }
    await expect(record(flags)).rejects.toThrow(
      /branch 'main' of .* exists but holds no history in 'benchmarks'.*--adopt-branch/
    )
    expect(treeHash(bare)).toBe(before)

    expect(await record({ ...flags, 'adopt-branch': true })).toBe(0)
    expect(lsTree(bare, 'main')).toEqual(
      expect.arrayContaining(['README.md', 'benchmarks/README.md'])
    )
  })
})

describe('a bad result file is refused before anything is written', () => {
  const good = makeResult()
  const noRuns = Object.fromEntries(Object.entries(good.cases[0]).filter(([k]) => k !== 'runs'))
  const cases: [string, () => string, RegExp][] = [
    ['a missing file', () => path.join(tmp, 'nope.json'), /cannot read a JSON result: ENOENT/],
    [
      'not JSON',
      () => {
        const file = path.join(tmp, 'result.json')
        fs.writeFileSync(file, '{"schema": "gnes-latency-bench/result@2", ')
        return file
      },
      /cannot read a JSON result: .*JSON/
    ],
    [
      'a case without runs',
      () => resultFile({ ...good, cases: [noRuns, good.cases[1]] }),
      /not a suite result: at cases\.0\.runs: Required/
    ],
    [
      'a case id that is no slug',
      () => resultFile({ ...good, cases: [{ ...good.cases[0], id: '../../etc' }] }),
      /not a suite result: at cases\.0\.id: /
    ],
    [
      'a result of a newer version',
      () => resultFile({ ...good, schema: 'gnes-latency-bench/result@9' }),
      /written by a newer gnes-latency-bench \(gnes-latency-bench\/result@9\); this one reads/
    ],
    [
      'a case with no measured run',
      () =>
        resultFile({
          ...good,
          cases: good.cases.map(c => ({ ...c, runs: c.runs.map(r => ({ ...r, warmup: true })) }))
        }),
      /case 1: no measured run: nothing recorded/
    ]
  ]

  test.each(cases)('%s, into a directory', async (_name, file, message) => {
    const dir = path.join(tmp, 'history')
    const f = file()
    await expect(record({ result: f, 'history-dir': dir })).rejects.toThrow(message)
    await expect(record({ result: f, 'history-dir': dir })).rejects.toThrow(`--result ${f}: `)
    expect(fs.existsSync(dir)).toBe(false)
  })

  test.each(cases)('%s, onto a branch', async (_name, file, message) => {
    const bare = initBare(path.join(tmp, 'remote.git'))
    const before = treeHash(bare)
    await expect(record({ result: file(), 'history-repository': bare })).rejects.toThrow(message)
    expect(treeHash(bare)).toBe(before)
  })
})

test('the command line: --help, and a missing --result or history named', async () => {
  expect(await cli(['record', '--help'])).toBe(0)
  expect(logged.join('\n')).toContain('usage: gnes-latency-bench record [flags]')
  await expect(cli(['record', '--history-dir', tmp])).rejects.toThrow('record needs --result FILE')
  await expect(cli(['record', '--result', resultFile(makeResult())])).rejects.toThrow(
    '--history-dir DIR (or --history-repository PATH) is needed'
  )
})
