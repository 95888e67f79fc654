import { profileKey } from '../client/profile'
import type { HistoryEntry } from '../history/schema'
import { verdictMetric } from '../metrics/verdict-metric'
import { OTAVA_DEFAULTS, type ChangePointOptions } from './change-points'
import { newSteps, stepsOf, type Step } from './steps'

/**
 * Which entries form one series for change points: only entries measured alike are compared,
 * so a change of settings is never read as a step of the code. The same case and profile (and
 * rate), engine, CPU hold, request, and kind of runner (GitHub's hosted runners are one kind
 * whatever their number; a self-hosted runner is its own).
 */
export function runnerKind(runner: string | null): string {
  if (runner === null) return 'unknown'
  return /^GitHub Actions \d+$/.test(runner) ? 'github-hosted' : runner
}

export const comparableKey = (e: HistoryEntry): string =>
  JSON.stringify([
    e.caseId,
    profileKey(e.profile),
    e.engine,
    e.cpusAwake ?? false,
    e.profile.kind === 'burst' ? e.load.docs : null,
    e.load.batchSize,
    e.load.docBytes,
    runnerKind(e.runner)
  ])

/** Entries (oldest first) split into series of entries measured alike, each oldest first. */
function alike(entries: readonly HistoryEntry[]): HistoryEntry[][] {
  const groups = new Map<string, HistoryEntry[]>()
  for (const e of entries) {
    const key = comparableKey(e)
    groups.set(key, [...(groups.get(key) ?? []), e])
  }
  return [...groups.values()]
}

/**
 * The metrics a series is searched in: its headline first, then every other published metric
 * (its hops), so a change too small for the headline's noise still shows where it happened.
 */
const searchedMetrics = (entries: readonly HistoryEntry[]): string[] => {
  const headline = entries.at(-1)?.headline
  if (!headline) return []
  return [headline, ...new Set(entries.flatMap(e => e.metrics).filter(m => m !== headline))]
}

/**
 * `find` over every series of `entries` (oldest first; any mix of cases and profiles, since
 * entries measured alike share their case and profile) and every metric it is searched in.
 */
export const searchSeries = (
  entries: readonly HistoryEntry[],
  find: (series: HistoryEntry[], metric: string) => TrendStep[]
): TrendStep[] => alike(entries).flatMap(g => searchedMetrics(g).flatMap(metric => find(g, metric)))

/** Whether a step is of its series' headline: the figure its static trend chart plots and marks. */
export const ofHeadline = (s: TrendStep): boolean => s.metric === s.firstAfter.headline

/**
 * Whether a step is of the metric its case is judged by (`path` for a GNES case at minimal or
 * paced load): the figure a push alerts on and a bisect searches, as a pull request's verdict.
 */
export const ofVerdictMetric = (s: TrendStep): boolean => s.metric === verdictMetric(s.firstAfter)

/** A step of one metric of one series, with the entries on either side of it. */
export interface TrendStep extends Step {
  caseId: string
  metric: string
  /** The last entry at the old level and the first at the new: the commit range of the step. */
  lastBefore: HistoryEntry
  firstAfter: HistoryEntry
}

/**
 * The detection the report and pushes run: Otava's, except that a step must move its metric's
 * level by at least 1 %. A very stable hop (a send gap of tens of microseconds) otherwise shows
 * sub-percent steps that are real and mean nothing to anyone reading latency.
 */
export const STEP_OPTIONS: ChangePointOptions = { ...OTAVA_DEFAULTS, minMagnitude: 0.01 }

/** Entries of `entries` (oldest first) that carry `metric`, in order. */
const carrying = (entries: readonly HistoryEntry[], metric: string): HistoryEntry[] =>
  entries.filter(e => Number.isFinite(e.best[metric]))

function located(at: HistoryEntry[], metric: string, s: Step): TrendStep {
  return {
    ...s,
    caseId: at[s.index].caseId,
    metric,
    lastBefore: at[s.index - 1],
    firstAfter: at[s.index]
  }
}

/** Every step of `metric` in one series (entries oldest first, all of one comparable key). */
export function seriesSteps(
  entries: readonly HistoryEntry[],
  metric: string,
  options = STEP_OPTIONS
): TrendStep[] {
  const at = carrying(entries, metric)
  return stepsOf(
    at.map(e => e.best[metric]),
    options
  ).map(s => located(at, metric, s))
}

/**
 * The steps of `metric` that the entries in `added` (the newest of the series) made detectable
 * for the first time: what a recording push announces.
 */
export function pushSteps(
  entries: readonly HistoryEntry[],
  metric: string,
  added: ReadonlySet<string>,
  options = STEP_OPTIONS
): TrendStep[] {
  const at = carrying(entries, metric)
  const known = at.findIndex(e => added.has(e.id))
  if (known < 0) return []
  return newSteps(
    at.map(e => e.best[metric]),
    known,
    options
  ).map(s => located(at, metric, s))
}
