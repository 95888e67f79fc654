import { backoffMs } from '../src/history/branch-store'
import { entriesFromResult } from '../src/history/from-result'
import { appendMessage, planAppend, selectPrune } from '../src/history/plan'
import { shouldRecord } from '../src/history/policy'
import { HistoryEntrySchema, type HistoryEntry } from '../src/history/schema'
import { makeResult } from './fixtures/history/result'

describe('entriesFromResult', () => {
  const result = makeResult()
  const entries = entriesFromResult(result)

  test('one valid entry per case with a stable id', () => {
    expect(entries.map(e => e.id)).toEqual([`${result.id}/1/burst`, `${result.id}/3/burst`])
    for (const e of entries) expect(HistoryEntrySchema.parse(e)).toEqual(e)
    expect(entriesFromResult(result)).toEqual(entries)
  })

  test('carries commit, gnes, load and the case figures', () => {
    const [e] = entries
    expect(e.commit).toEqual({
      sha: '0123456789abcdef0123456789abcdef01234567',
      ref: 'refs/heads/main',
      event: 'push',
      repository: 'org/gnes',
      message: 'speed up routers',
      url: 'https://github.com/org/gnes/commit/0123456789abcdef0123456789abcdef01234567'
    })
    expect(e.gnes).toEqual(result.meta.gnes)
    expect(e.load).toEqual(result.meta.load)
    expect(e.best).toEqual({ roundtrip: 0.11, 'f:send': 0.05 })
    expect(e.legacyMBps).toBeCloseTo(500 / 0.11)
    expect(e.runner).toBe('box')
    expect(e.runs.map(r => r.warmup)).toEqual([true, false, false])
    expect(e.timestampEval).toBe(result.cases[0].runs[1].startedAt)
  })

  test('pools the measured runs only; samples and run summaries rounded to microseconds', () => {
    expect(entries[0].samples!.roundtrip).toEqual([0.1, 0.112346, 0.12, 0.12, 0.132346, 0.14])
    expect(entries[0].samples!['f:send']).toHaveLength(4)
    expect(entries[0].runs[1].summaries.roundtrip).toMatchObject({ n: 3, mean: 0.110782 })
  })

  test('a partial suite yields nothing', () => {
    expect(() => entriesFromResult(result, ['1', '2', '3'])).toThrow(/lacks case\(s\) 2/)
    const warmOnly = makeResult()
    warmOnly.cases[1].runs = warmOnly.cases[1].runs.filter(r => r.warmup)
    expect(() => entriesFromResult(warmOnly)).toThrow(/case 3: no measured run/)
  })
})

describe('planAppend', () => {
  const [a, b] = entriesFromResult(makeResult())
  test('adds unknown ids and keeps stored ones untouched', () => {
    const changed: HistoryEntry = { ...a, best: { roundtrip: 9 } }
    expect(planAppend(e => e.id === a.id, [changed, b])).toEqual({ add: [b], present: [a.id] })
  })
  test('rejects an invalid or repeated entry before anything is written', () => {
    expect(() => planAppend(() => false, [{ ...a, timestampEval: 'yesterday' }])).toThrow(
      /new entry '.*\/1\/burst': invalid: at timestampEval/
    )
    expect(() => planAppend(() => false, [a, a])).toThrow(/given twice/)
  })
  test('the commit message names the case set and the commit', () => {
    expect(appendMessage([a, b])).toBe(
      'history: add cases 1,3 of 0123456 (refs/heads/main) [2 entries]'
    )
    expect(appendMessage([a])).toBe('history: add cases 1 of 0123456 (refs/heads/main) [1 entry]')
  })
})

describe('selectPrune', () => {
  const at = (caseId: string, day: number): HistoryEntry => ({
    ...entriesFromResult(makeResult())[0],
    id: `${caseId}-${day}`,
    caseId,
    timestampEval: new Date(Date.UTC(2026, 0, day)).toISOString()
  })
  const all = [1, 2, 3, 4].flatMap(d => [at('1', d), at('2', d)])
  const ids = (es: HistoryEntry[]) => es.map(e => e.id).sort()

  test('needs an explicit rule', () => {
    expect(() => selectPrune(all, {})).toThrow(/--keep or --before/)
  })
  test('--keep N keeps the newest N per case', () => {
    expect(ids(selectPrune(all, { keep: 3 }))).toEqual(['1-1', '2-1'])
  })
  test('--before deletes older entries, --case narrows', () => {
    const before = new Date(Date.UTC(2026, 0, 3))
    expect(ids(selectPrune(all, { before }))).toEqual(['1-1', '1-2', '2-1', '2-2'])
    expect(ids(selectPrune(all, { before, cases: ['2'] }))).toEqual(['2-1', '2-2'])
  })
  test('both limits together never delete more than either', () => {
    const before = new Date(Date.UTC(2026, 0, 4))
    expect(ids(selectPrune(all, { keep: 3, before }))).toEqual(['1-1', '2-1'])
    expect(ids(selectPrune(all, { keep: 1, before: new Date(Date.UTC(2026, 0, 2)) }))).toEqual([
      '1-1',
      '2-1'
    ])
  })
})

describe('record: auto records exactly push, release, schedule and workflow_dispatch', () => {
  test.each(['push', 'release', 'schedule', 'workflow_dispatch'])('%s records', event => {
    expect(shouldRecord('auto', event)).toBe(true)
  })
  test.each([
    'pull_request',
    'pull_request_target',
    'pull_request_review',
    'pull_request_review_comment',
    'merge_group',
    'workflow_run',
    'workflow_call',
    'repository_dispatch',
    'issue_comment',
    'check_run',
    'deployment',
    'Push'
  ])('%s does not record', event => {
    expect(shouldRecord('auto', event)).toBe(false)
  })
  test('the command line (no event) records; true and false decide for every event', () => {
    expect(shouldRecord('auto', null)).toBe(true)
    for (const event of ['pull_request', 'merge_group', 'push', null]) {
      expect(shouldRecord('true', event)).toBe(true)
      expect(shouldRecord('false', event)).toBe(false)
    }
  })
})

test('backoff grows, is capped and jittered', () => {
  expect(backoffMs(1, () => 0)).toBe(125)
  expect(backoffMs(1, () => 1)).toBe(375)
  expect(backoffMs(3, () => 0.5)).toBe(1000)
  expect(backoffMs(20, () => 0.5)).toBe(5000)
})
