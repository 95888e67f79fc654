/**
 * A paired run that records: each entry keeps its change against the base measured beside it,
 * and a series of those changes against one base is what change points and alerts read.
 */
import { synthetic } from '../bench/synthetic-series'
import { abbaOrder } from '../src/client/interleave'
import { entriesFromResult } from '../src/history/from-result'
import { HistoryEntrySchema, type HistoryEntry } from '../src/history/schema'
import { pairedBase, pairedChanges } from '../src/pipeline/record'
import { comparePaired } from '../src/judge/paired'
import { alertSteps, stepOutputs } from '../src/judge/alert'
import { againstBase, ofVerdictMetric, searchSeries, seriesSteps } from '../src/trend/series'
import { slowdownToBisect } from '../src/judge/bisect-target'
import { pacedEntry } from './fixtures/render/entries'
import { makeResult, makeRuns, rng } from './fixtures/report/samples'

describe('recording a paired run', () => {
  const r = rng(7)
  const shape = { runs: 6, requests: 20, base: 0.02, runSd: 0.0005, requestSd: 0.002, ar: 0.3 }
  const side = (scale: number, version: string, file: string) => {
    const result = makeResult([
      {
        id: '1',
        name: 'case 1',
        metrics: {
          path: makeRuns(r, { ...shape, scale }),
          'r2:proc': makeRuns(r, { ...shape, base: 0.001, scale })
        }
      }
    ])
    return {
      ...result,
      meta: { ...result.meta, gnes: { ...result.meta.gnes!, version, tag: version, vcs: null } },
      cases: result.cases.map(c => ({ ...c, topologyFile: file }))
    }
  }
  const run = {
    base: side(1, '0.0.46', 'topologies/case1.yml'),
    head: side(1.1, '0.0.47', 'topologies/slow.yml'),
    order: abbaOrder(6),
    interleave: 'requests' as const
  }
  const comparison = comparePaired(run, { threshold: 0.025 })

  test('each entry keeps every metric’s change against the base, the pairs, and what the base was', () => {
    const [entry] = entriesFromResult(run.head, ['1'], pairedChanges(comparison))
    const [k] = comparison.cases
    expect(entry.paired).toEqual({
      base: 'GNES 0.0.46 · topology case1.yml',
      pairs: 6,
      change: Object.fromEntries(k.metrics.map(m => [m.metric, { change: m.change, ci: m.ci }]))
    })
    expect(entry.paired!.change.path.change).toBeGreaterThan(0.05)
    // The stored entry passes the history's schema; one of a suite on its own has no `paired`.
    expect(HistoryEntrySchema.parse(entry)).toEqual(entry)
    expect(entriesFromResult(run.head, ['1'])[0]).not.toHaveProperty('paired')
  })

  test('the base is named by what it was, whatever the head, so a base that moves never forms one series', () => {
    const [k] = comparison.cases
    expect(pairedBase({ ...comparison, baseCommit: 'a'.repeat(40) }, k)).toBe(
      `GNES 0.0.46 · commit ${'a'.repeat(12)} · topology case1.yml`
    )
    // The same whatever the head runs: a head with the base's file names the base alike.
    const same = { ...k, files: { base: '/a/case1.yml', head: '/a/case1.yml' } }
    expect(pairedBase(comparison, same)).toBe(pairedBase(comparison, k))
    expect(pairedBase({ ...comparison, side: { base: null, head: null } }, same)).toBe(
      'topology case1.yml'
    )
  })
})

/**
 * 40 pushes of a GNES case at minimal load: each push's own `path` has a slow spell of the runner
 * (+10 % over pushes 10–19) and a real +5 % from push 30; its change against the fixed base,
 * measured beside it in each job, moves only at 30.
 */
function pushes(base = (_i: number) => 'GNES 0.0.47'): HistoryEntry[] {
  const own = synthetic({ length: 40, cv: 0.01, steps: [{ at: 30, size: 0.05 }] }, 11)
  const vsBase = synthetic({ length: 40, cv: 0.005, steps: [{ at: 30, size: 0.05 }] }, 12)
  return own.map((v, i) => {
    const e = pacedEntry(i)
    const spell = i >= 10 && i < 20 ? 1.1 : 1
    const path = (v / 100) * spell
    const change = vsBase[i] / 100 - 1
    return {
      ...e,
      best: { ...e.best, path },
      paired: {
        base: base(i),
        pairs: 6,
        change: { path: { change, ci: [change - 0.01, change + 0.01] as [number, number] } }
      }
    }
  })
}

describe('a series of paired changes', () => {
  test('is searched beside the metrics, and alone alerts: a spell of the runner does not', () => {
    const steps = searchSeries(pushes(), seriesSteps)
    const path = steps.filter(s => s.metric === 'path')
    const vsBase = steps.filter(s => s.metric === againstBase('path'))
    // The runner's spell is a step of `path` itself (shown, never alerted) ...
    expect(path.map(s => s.index)).toContain(10)
    // ... and the paired series has one step, at push 30, about +5 %.
    expect(vsBase.map(s => s.index)).toEqual([30])
    expect(vsBase[0].change).toBeGreaterThan(0.03)
    expect(vsBase[0].change).toBeLessThan(0.07)
    const alerted = stepOutputs(alertSteps(steps, 0.025)).filter(o => o.alert)
    expect(alerted.map(o => [o.metric, o.from, o.to])).toEqual([
      ['path vs base', pacedEntry(29).commit.sha, pacedEntry(30).commit.sha]
    ])
    expect(path.some(ofVerdictMetric)).toBe(false)
    // A bisect of the newest slowdown starts from that step, not the spell.
    expect(slowdownToBisect([[...pushes()].reverse()], 'newest')).toMatchObject({
      metric: 'path vs base',
      index: 30
    })
  })

  test('compares only changes against one base: the newest entry’s', () => {
    // Pushes before 20 were paired against another base, 8 % apart: no step at 20.
    const entries = pushes(i => (i < 20 ? 'GNES 0.0.46' : 'GNES 0.0.47')).map((e, i) =>
      i < 20
        ? {
            ...e,
            paired: {
              ...e.paired!,
              change: { path: { change: e.paired!.change.path.change + 0.08, ci: [0, 0.2] } }
            }
          }
        : e
    ) as HistoryEntry[]
    const steps = seriesSteps(entries, againstBase('path'))
    expect(steps.map(s => [s.index, s.lastBefore.id])).toEqual([[10, entries[29].id]])
  })

  test('entries without a paired change keep alerting on the metric itself', () => {
    const own = pushes().map(({ paired: _, ...e }) => e)
    const steps = searchSeries(own, seriesSteps)
    expect(steps.some(s => s.metric === againstBase('path'))).toBe(false)
    expect(stepOutputs(alertSteps(steps, 0.025)).filter(o => o.alert)[0]).toMatchObject({
      metric: 'path'
    })
  })
})
