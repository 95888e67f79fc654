import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { importLegacyCommand } from '../src/commands/import-legacy'
import { pruneCommand } from '../src/commands/prune'
import { appendToDir } from '../src/history/dir-store'
import { HistoryError } from '../src/history/errors'
import { LEGACY_METRICS, epochToIso, importLegacy } from '../src/history/legacy'
import { readHistory } from '../src/history/read'
import type { HistoryEntry } from '../src/history/schema'
import { git, lsTree } from './fixtures/history/git'

/** The old pipeline's published files, copied byte for byte from shared/legacy-gnes-benchmark. */
const LEGACY_DIR = path.join(__dirname, 'fixtures', 'legacy')
const fixture = (i: number) => path.join(LEGACY_DIR, `history${i}.jsonl`)

/** Inverse of the import: the legacy line an entry came from. */
function legacyLine(e: HistoryEntry): Record<string, unknown> {
  const [, whole, frac] = /^(.{19})(?:\.(\d+))?Z$/.exec(e.timestampEval)!
  const seconds = Date.parse(`${whole}Z`) / 1000
  return {
    'MB/s': e.legacyMBps,
    ...e.best,
    timestamp_build: e.gnes!.buildDate,
    timestamp_eval: Number(frac ? `${seconds}.${frac}` : seconds),
    version_tag: e.gnes!.tag,
    version_vcs: e.gnes!.vcs
  }
}

let tmp: string
let logged: string[]
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'history-legacy-'))
  logged = []
  jest.spyOn(console, 'log').mockImplementation((line: string) => void logged.push(line))
})
afterEach(() => {
  jest.restoreAllMocks()
  fs.rmSync(tmp, { recursive: true, force: true })
})

test('imports 46 entries per case whose values equal the source lines', () => {
  const entries = importLegacy(LEGACY_DIR)
  expect(entries).toHaveLength(184)
  for (const [i, name] of [
    'non-blocking',
    'blocking',
    'parallel non-blocking',
    'parallel blocking'
  ].entries()) {
    const caseId = String(i + 1)
    const mine = entries.filter(e => e.caseId === caseId)
    const lines = fs
      .readFileSync(fixture(i + 1), 'utf8')
      .trim()
      .split('\n')
      .map(l => JSON.parse(l))
    expect(mine).toHaveLength(46)
    expect(mine.map(legacyLine)).toEqual(lines)
    for (const e of mine) {
      expect(e).toMatchObject({
        caseName: name,
        origin: 'legacy',
        engine: 'legacy',
        load: {
          docs: 500,
          batchSize: 10,
          docBytes: 1000000,
          runs: 3,
          requests: 50,
          warmupRequests: 0
        },
        profile: { kind: 'burst' },
        headline: 'roundtrip',
        sweep: null,
        metrics: [...LEGACY_METRICS],
        samples: null,
        dataRateMBps: null
      })
    }
  }
  expect(new Set(entries.map(e => e.id)).size).toBe(184)
  expect(entries[0]).toMatchObject({
    id: 'legacy/1/1569580160.479616',
    timestampEval: '2019-09-27T10:29:20.479616Z',
    gnes: { version: 'latest-alpine', tag: 'latest-alpine', vcs: '51837cf' },
    legacyMBps: 3258,
    best: { roundtrip: 0.15543996 }
  })
  expect(entries.find(e => e.gnes?.tag === 'v0.0.43-alpine')!.gnes?.version).toBe('0.0.43')
})

test('epoch seconds keep every printed fraction digit', () => {
  expect(epochToIso(1571802321.0478)).toBe('2019-10-23T03:45:21.0478Z')
  expect(epochToIso(1569580160)).toBe('2019-09-27T10:29:20Z')
})

test('a bad legacy line names the file and line', () => {
  const file = path.join(tmp, 'history7.jsonl')
  fs.writeFileSync(file, '{"MB/s": 1}\n')
  expect(() => importLegacy([file])).toThrow(HistoryError)
  expect(() => importLegacy([file])).toThrow(`${file}:1: at roundtrip: Required`)
  fs.writeFileSync(path.join(tmp, 'other.jsonl'), '')
  expect(() => importLegacy([path.join(tmp, 'other.jsonl')])).toThrow(/named history<case>\.jsonl/)
})

test('importing twice into a directory keeps one copy of each entry', async () => {
  const dir = path.join(tmp, 'history')
  const first = await appendToDir({ dir, entries: importLegacy(LEGACY_DIR) })
  expect(first.added).toHaveLength(184)
  const second = await appendToDir({ dir, entries: importLegacy(LEGACY_DIR) })
  expect(second).toMatchObject({ added: [], present: expect.any(Array) })
  expect(second.present).toHaveLength(184)
  expect(readHistory(dir)).toEqual(first.all)
})

test('import-legacy into a local git repository, then prune it', async () => {
  const repo = path.join(tmp, 'project')
  fs.mkdirSync(repo)
  git(repo, 'init', '-q', '-b', 'main')
  git(repo, 'commit', '-q', '--allow-empty', '-m', 'init')
  const args = { from: LEGACY_DIR, 'history-dir': 'benchmarks', 'history-repository': repo }
  expect(await importLegacyCommand.run(args, [])).toBe(0)
  expect(logged.pop()).toMatch(/^imported 184 of 184 legacy entries into .* gh-pages:benchmarks/)
  const entryFiles = (ref: string) =>
    lsTree(repo, ref).filter(f => f.startsWith('benchmarks/entries/'))
  expect(entryFiles('gh-pages')).toHaveLength(184)
  // The report is re-rendered in the same commit.
  expect(lsTree(repo, 'gh-pages')).toEqual(
    expect.arrayContaining([
      'benchmarks/README.md',
      'benchmarks/index.html',
      'benchmarks/charts/case-4-roundtrip.svg'
    ])
  )
  expect(git(repo, 'log', '-1', '--format=%s', 'gh-pages')).toBe(
    'history: add legacy cases 1,2,3,4 of no commit [184 entries]\n'
  )
  expect(await importLegacyCommand.run(args, [])).toBe(0)
  expect(logged.pop()).toMatch(/imported 0 of 184 .*184 were stored already/)
  expect(git(repo, 'rev-list', '--count', 'gh-pages').trim()).toBe('1')

  const target = { 'history-dir': 'benchmarks', 'history-repository': repo }
  await expect(pruneCommand.run(target, [])).rejects.toThrow(/--keep N or --before DATE/)
  await expect(pruneCommand.run({ ...target, before: 'soon' }, [])).rejects.toThrow(/--before/)
  expect(await pruneCommand.run({ ...target, keep: '40', case: '1,2', 'dry-run': true }, [])).toBe(
    0
  )
  expect(logged.pop()).toBe('would delete 12 entries; 172 would remain')
  expect(git(repo, 'rev-list', '--count', 'gh-pages').trim()).toBe('1')
  expect(await pruneCommand.run({ ...target, before: '2019-10-01' }, [])).toBe(0)
  const kept = entryFiles('gh-pages')
  expect(kept.some(f => f.includes('/2019/09/'))).toBe(false)
  expect(logged.pop()).toBe(`deleted ${184 - kept.length} entries; ${kept.length} remain`)
})
