import * as path from 'node:path'
import type { Inputs } from '../config/inputs'
import { entriesFromResult, type HistoryEntry, type Render } from '../history'
import { seriesKeyOf, type PairedChange } from '../history/schema'
import type { PairedCase, PairedComparison } from '../judge'
import { alertSteps, type StepAlerts } from '../judge/alert'
import { SET_ASIDE_RULE } from '../judge/set-aside'
import type { Log } from '../log'
import { shownSeries } from '../render'
import type { Result } from '../result/schema'
import type { CaseSpec } from '../topology/cases'
import { pushSteps, searchSeries, type TrendStep } from '../trend/series'
import { appendEntries, type HistoryLocation, type Recorded } from './location'
import { renderHook } from './render'

/** What recording needs besides the result: how the report renders, and the cases asked for. */
interface RecordSettings {
  inputs: Pick<Inputs, 'readme-template' | 'max-entries' | 'profiles' | 'alert-threshold'>
  /** The cases pre-flight resolved: their diagrams are shown; a result lacking one is refused. */
  cases: readonly CaseSpec[]
  /** `https://github.com/owner/repo` for commit links, where known. */
  repositoryUrl?: string
  log?: Log
  /** A paired run's comparison: each entry records its change against the base. */
  paired?: PairedComparison
}

/**
 * What the base of a paired case was, in a few words: its GNES (and build commit), its commit
 * with `baseline-ref`, its topology file's name. Only entries of one base form a series of
 * paired changes, so a base that moves with every push (a merge base) never does.
 */
export function pairedBase(c: PairedComparison, k: PairedCase): string {
  const gnes = c.side.base
  const parts = [
    gnes &&
      `GNES ${gnes.gnesVersion}${gnes.gnesTag === gnes.gnesVersion ? '' : ` (${gnes.gnesTag})`}` +
        (gnes.gnesVcs ? ` ${gnes.gnesVcs.slice(0, 12)}` : ''),
    c.baseCommit && `commit ${c.baseCommit.slice(0, 12)}`,
    // Always, whatever the head runs: a label that changed with the head's file would split the
    // series exactly where the head's change is. By name: the action's own topologies lie under
    // a path that moves with its version, a base commit's under a checkout of its own.
    `topology ${path.basename(k.files.base)}`
  ]
  return parts.filter(Boolean).join(' · ').slice(0, 300)
}

/** The pairs a case left out of its test, as the history keeps them; nothing when none were. */
function setAsideOf(k: PairedCase): Pick<PairedChange, 'setAside'> {
  const gate = k.metrics.find(m => m.gating)
  if (!gate || !k.setAside.length) return {}
  return {
    setAside: {
      pairs: k.setAside.map(i => i + 1),
      ratios: k.setAside.map(i => gate.ratios[i]),
      rule: SET_ASIDE_RULE
    }
  }
}

/** Per case of a paired run (by its series key), every metric's change against the base. */
export const pairedChanges = (c: PairedComparison): Map<string, PairedChange> =>
  new Map(
    c.cases.map(k => [
      seriesKeyOf(k.caseId, k.profile),
      {
        base: pairedBase(c, k),
        pairs: k.sequence.pairs,
        change: Object.fromEntries(k.metrics.map(m => [m.metric, { change: m.change, ci: m.ci }])),
        ...setAsideOf(k)
      }
    ])
  )

/**
 * A recording's outcome, and the steps its entries made detectable for the first time, each
 * stamped by the alert rule.
 */
export interface RecordedRun extends Recorded {
  alerts: StepAlerts
}

/**
 * The render a write calls, keeping the entries of each case it was last shown: what the
 * branch holds after the write, as far as the report reads it.
 */
function watched(render: Render): { render: Render; shown: () => HistoryEntry[][] } {
  let shown: HistoryEntry[][] = []
  return {
    render: {
      ...render,
      report: cases => {
        shown = cases.map(c => c.recent)
        return render.report(cases)
      },
      full: all => {
        shown = [all]
        return render.full(all)
      }
    },
    shown: () => shown
  }
}

/**
 * Steps of each series' metrics (headline first) among the entries its charts show (its newest
 * `maxEntries`) that the entries `added` first show: a push announces a step once, when its
 * entries make it detectable, and never one the charts do not mark.
 */
export const stepsAdded = (
  read: HistoryEntry[][],
  added: ReadonlySet<string>,
  maxEntries: number
): TrendStep[] =>
  shownSeries(read.flat(), maxEntries).flatMap(series =>
    searchSeries([...series].reverse(), (g, metric) => pushSteps(g, metric, added))
  )

/**
 * Load profiles a case of the history is run under, as far as known: those asked for, or more
 * where the result holds more (a result file measured with other inputs).
 */
const profilesPerCase = (result: Result, asked: readonly string[]): number => {
  const counts = new Map<string, number>()
  for (const c of result.cases) counts.set(c.id, (counts.get(c.id) ?? 0) + 1)
  return Math.max(asked.length, ...counts.values())
}

/**
 * Records a suite's result in the history and re-renders the report there, in one write. A result
 * lacking a case that was asked for is refused before anything is written.
 */
export async function recordResult(
  result: Result,
  location: HistoryLocation,
  { inputs, cases, repositoryUrl, log, paired }: RecordSettings
): Promise<RecordedRun> {
  const topologies = cases.map(c => c.topology)
  const render = renderHook({
    topologies,
    template: inputs['readme-template'],
    maxEntries: inputs['max-entries'],
    profilesPerCase: profilesPerCase(result, inputs.profiles),
    repositoryUrl
  })
  const expected = topologies.map(t => t.id)
  const watch = watched(render)
  const recorded = await appendEntries(
    entriesFromResult(result, expected, paired && pairedChanges(paired)),
    location,
    watch.render,
    log
  )
  return {
    ...recorded,
    alerts: alertSteps(
      stepsAdded(watch.shown(), new Set(recorded.added), inputs['max-entries']),
      inputs['alert-threshold']
    )
  }
}
