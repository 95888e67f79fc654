import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { entriesFromResult } from '../src/history/from-result'
import { earlierEntryPaths, encodeSegment, entryPath } from '../src/site/layout'
import { serializeEntry } from '../src/history/schema'
import { HistoryEntryV0Schema } from '../src/history/migrate'
import { applyAppend } from '../src/history/dir-store'
import { readHistory } from '../src/history/read'
import { HistoryError } from '../src/history/errors'
import { HISTORY_SCHEMA } from '../src/history/schema'
import { makeResult } from './fixtures/history/result'
import { benchEntry } from './fixtures/render/entries'

let dir: string
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'history-read-'))
})
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }))

const put = (rel: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true })
  fs.writeFileSync(path.join(dir, rel), text)
}

const v0 = HistoryEntryV0Schema.parse({
  schema: 'gnes-latency-bench/history@0',
  id: 'draft/1',
  caseId: '1',
  caseName: 'non-blocking',
  origin: 'bench',
  resultId: 'draft',
  sha: 'abc1234',
  ref: 'refs/heads/master',
  event: 'push',
  gnes: { version: '0.0.45', tag: 'v0.0.45-alpine', vcs: 'f40d46a' },
  buildDate: '2019-10-01T00:00:00Z',
  engine: 'docker',
  runner: 'ubuntu-latest',
  load: { docs: 500, batchSize: 10, docBytes: 1000000, runs: 3 },
  timestampEval: '2019-10-02T03:04:05.123456Z',
  best: { roundtrip: 0.15, 'f:send': 0.12 },
  mbps: 3333,
  runs: [
    {
      roundtrip: {
        n: 50,
        mean: 0.15,
        median: 0.14,
        p90: 0.2,
        p99: 0.3,
        min: 0.1,
        max: 0.3,
        std: 0.02
      }
    }
  ],
  samples: null
})

describe('readHistory', () => {
  test('an absent history is empty', () => {
    expect(readHistory(path.join(dir, 'nothing'))).toEqual([])
  })

  test('reads entries it wrote, oldest first, skipping dotfiles and the rendered report', () => {
    const entries = entriesFromResult(makeResult())
    for (const e of [...entries].reverse()) put(entryPath(e), serializeEntry(e))
    put('entries/1/.DS_Store', 'junk')
    put('README.md', 'rendered, not history')
    put('data/history.json', '{"dashboard": "rendered, not history"}')
    put('charts/case-1-roundtrip.vl.json', '{}')
    expect(readHistory(dir)).toEqual(entries)
  })

  test('migrates a @0 entry to the current schema on read, keeping every value', () => {
    put('entries/1/2019-10/draft~2F1.json', JSON.stringify(v0))
    const [e] = readHistory(dir)
    expect(e.schema).toBe(HISTORY_SCHEMA)
    expect(e.commit).toEqual({
      sha: 'abc1234',
      ref: 'refs/heads/master',
      event: 'push',
      repository: null,
      message: null,
      url: null
    })
    expect(e.gnes).toEqual({ ...v0.gnes, buildDate: v0.buildDate })
    expect(e.load).toEqual({
      ...v0.load,
      requests: Math.ceil(v0.load.docs / v0.load.batchSize),
      warmupRequests: 0
    })
    expect(e.profile).toEqual({ kind: 'burst' })
    expect(e.headline).toBe('roundtrip')
    expect(e.sweep).toBeNull()
    expect(e.metrics).toEqual(['roundtrip', 'f:send'])
    expect(e.best).toEqual(v0.best)
    expect(e.legacyMBps).toBe(3333)
    expect(e.dataRateMBps).toBeNull()
    expect(e.runs).toEqual([{ warmup: false, summaries: v0.runs[0] }])
    expect(e.timestampEval).toBe(v0.timestampEval)
  })

  test('migrates a @1 entry (before load profiles) to a burst whose warm-up runs become requests', () => {
    const v1 = {
      ...benchEntry(3),
      schema: 'gnes-latency-bench/history@1',
      load: { docs: 500, batchSize: 10, docBytes: 1000000, runs: 3, warmupRuns: 1 }
    } as Record<string, unknown>
    delete v1.profile
    delete v1.headline
    delete v1.sweep
    put(entryPath(benchEntry(3)), JSON.stringify(v1))
    const [e] = readHistory(dir)
    expect(e.schema).toBe(HISTORY_SCHEMA)
    expect(e.load).toEqual({
      docs: 500,
      batchSize: 10,
      docBytes: 1000000,
      runs: 3,
      requests: 50,
      warmupRequests: 50
    })
    expect(e.profile).toEqual({ kind: 'burst' })
    expect(e.best).toEqual(benchEntry(3).best)
  })

  const failures: [string, string, string, RegExp][] = [
    ['broken JSON', 'entries/1/2019-10/draft~2F1.json', '{"schema": ', /not valid JSON/],
    [
      'an invalid field',
      'entries/1/2019-10/draft~2F1.json',
      JSON.stringify({ ...v0, best: { roundtrip: 'fast' } }),
      /invalid gnes-latency-bench\/history@0 entry: at best\.roundtrip: Expected number/
    ],
    [
      'a newer schema',
      'entries/1/2019-10/draft~2F1.json',
      JSON.stringify({ ...v0, schema: 'gnes-latency-bench/history@7' }),
      /written by a newer gnes-latency-bench .*history@7.*reads up to .*history@2/
    ],
    ['no schema', 'entries/1/2019-10/x.json', '[1, 2]', /not a history entry: at \(top level\)/],
    [
      'a file at the wrong path',
      'entries/2/2019-10/draft~2F1.json',
      JSON.stringify(v0),
      /holds entry 'draft\/1', which belongs at entries\/1\/2010s\/2019\/10\/draft~2F1\.json/
    ]
  ]
  test.each(failures)('%s stops the read, naming the file', (_what, rel, text, problem) => {
    put(rel, text)
    let error: unknown
    try {
      readHistory(dir, { label: 'gh-pages:benchmarks' })
    } catch (err) {
      error = err
    }
    expect(error).toBeInstanceOf(HistoryError)
    expect((error as HistoryError).file).toBe(`gh-pages:benchmarks/${rel}`)
    expect((error as Error).message).toMatch(problem)
  })

  test('a non-number among the samples stops the read', () => {
    const [e] = entriesFromResult(makeResult())
    const bad = { ...e, samples: { ...e.samples, roundtrip: [0.1, null, 0.2] } }
    put(entryPath(e), JSON.stringify(bad))
    expect(() => readHistory(dir)).toThrow(
      `${dir}/${entryPath(e)}: invalid entry: at samples.roundtrip: expected an array of finite numbers`
    )
  })

  test('an id stored twice stops the read', () => {
    put('entries/1/2019-10/draft~2F1.json', JSON.stringify(v0))
    const moved = { ...v0, timestampEval: '2019-11-02T00:00:00Z' }
    put('entries/1/2019-11/draft~2F1.json', JSON.stringify(moved))
    expect(() => readHistory(dir)).toThrow(/repeats entry 'draft\/1' of .*2019-10/)
  })
})

describe('layout', () => {
  test('file names keep ids apart and stay portable', () => {
    const ids = ['a/b', 'a~2Fb', 'a:b', '.hidden', 'x.y', 'é']
    const names = ids.map(encodeSegment)
    expect(new Set(names).size).toBe(ids.length)
    for (const n of names) expect(n).toMatch(/^[A-Za-z0-9_~-][A-Za-z0-9._~-]*$/)
    expect(names).toEqual(['a~2Fb', 'a~7E2Fb', 'a~3Ab', '~2Ehidden', 'x.y', '~C3~A9'])
  })

  test('shards by case, UTC decade, year and month', () => {
    expect(entryPath({ id: 'r/1', caseId: '1', timestampEval: '2019-10-01T01:00:00+02:00' })).toBe(
      'entries/1/2010s/2019/09/r~2F1.json'
    )
  })

  test('entries of the earlier layouts (no decade level, no year level) are read, and moved by the next write', () => {
    const [e, f] = entriesFromResult(makeResult())
    put(earlierEntryPaths(e)[0], JSON.stringify(e))
    put(earlierEntryPaths(f)[1], JSON.stringify(f))
    expect(earlierEntryPaths(e)).toEqual([
      `entries/${e.caseId}/2026/11/${encodeSegment(e.id)}.json`,
      `entries/${e.caseId}/2026-11/${encodeSegment(e.id)}.json`
    ])
    expect(
      readHistory(dir)
        .map(x => x.id)
        .sort()
    ).toEqual([e.id, f.id].sort())
    const more = entriesFromResult(makeResult({ sha: 'b'.repeat(40) }))
    applyAppend(dir, more)
    for (const x of [e, f]) {
      for (const rel of earlierEntryPaths(x)) expect(fs.existsSync(path.join(dir, rel))).toBe(false)
      expect(fs.readFileSync(path.join(dir, entryPath(x)), 'utf8')).toBe(JSON.stringify(x))
    }
    expect(
      readHistory(dir)
        .map(x => x.id)
        .sort()
    ).toEqual([e, f, ...more].map(x => x.id).sort())
  })
})
