/**
 * Change points over a history: which entries form one series, where a step lies between two
 * commits, and what a recording push announces.
 */
import { synthetic } from '../bench/synthetic-series'
import { entriesFromResult } from '../src/history/from-result'
import type { HistoryEntry } from '../src/history/schema'
import { comparableKey, pushSteps, runnerKind, seriesSteps } from '../src/trend/series'
import { makeResult } from './fixtures/history/result'

const [template] = entriesFromResult(makeResult())

/** Entries of case 1 (burst), one per value, oldest first, commit `c<i>`. */
const series = (values: number[], over: Partial<HistoryEntry> = {}): HistoryEntry[] =>
  values.map((v, i) => ({
    ...template,
    ...over,
    id: `e${i}`,
    commit: { ...template.commit, sha: `c${i}` },
    timestampEval: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
    best: { ...template.best, roundtrip: v }
  }))

test('entries measured alike form one series; any other setting or runner kind is another', () => {
  const [e] = series([1])
  expect(comparableKey({ ...e, runner: 'GitHub Actions 3' })).toBe(
    comparableKey({ ...e, runner: 'GitHub Actions 17' })
  )
  const others: Partial<HistoryEntry>[] = [
    { engine: 'docker' },
    { cpusAwake: !(e.cpusAwake ?? false) },
    { runner: 'build-box' },
    { load: { ...e.load, docBytes: e.load.docBytes * 2 } },
    { profile: { kind: 'minimal', rate: 5 } },
    { caseId: 'other' }
  ]
  for (const o of others) expect(comparableKey({ ...e, ...o })).not.toBe(comparableKey(e))
  expect([runnerKind(null), runnerKind('GitHub Actions 2'), runnerKind('rack-7')]).toEqual([
    'unknown',
    'github-hosted',
    'rack-7'
  ])
})

test('a step is placed between the last commit at the old level and the first at the new', () => {
  const values = synthetic({ length: 60, cv: 0.02, steps: [{ at: 40, size: 0.1 }] }, 5)
  const [step, ...rest] = seriesSteps(series(values), 'roundtrip')
  expect(rest).toEqual([])
  expect(step).toMatchObject({ index: 40, caseId: template.caseId, metric: 'roundtrip' })
  expect([step.lastBefore.commit.sha, step.firstAfter.commit.sha]).toEqual(['c39', 'c40'])
  expect(seriesSteps(series(values), 'no-such-metric')).toEqual([])
})

test('a push announces the step its entries first make detectable, and only once', () => {
  const values = synthetic({ length: 30, cv: 0.02, steps: [{ at: 19, size: 0.05 }] }, 21)
  const all = series(values)
  const announced = all.flatMap((e, i) =>
    pushSteps(all.slice(0, i + 1), 'roundtrip', new Set([e.id])).map(s => ({
      push: i + 1,
      at: s.firstAfter.commit.sha
    }))
  )
  expect(announced).toHaveLength(1)
  expect(announced[0].push).toBeGreaterThanOrEqual(20)
  expect(['c18', 'c19', 'c20']).toContain(announced[0].at)
  // A push that added nothing to this series announces nothing.
  expect(pushSteps(all, 'roundtrip', new Set(['elsewhere']))).toEqual([])
})
