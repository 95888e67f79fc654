import { profileKey } from '../profile/definition'
import type { HistoryEntry } from '../history/schema'
import { verdictMetric } from '../metrics/verdict-metric'
import { OTAVA_DEFAULTS, ROBUST_DEFAULTS, type ChangePointOptions } from './change-points'
import { newSteps, stepsOf, type Step } from './steps'
import { traitsOf } from '../profile/traits'

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
    traitsOf(e.profile).runSize === 'docs' ? e.load.docs : null,
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

const AGAINST_BASE = ' vs base'

/**
 * The series of a metric's paired changes (`path vs base`): entries recorded by paired runs
 * against one base, each its head ÷ base. A runner's slow spell moves both sides of a pair alike,
 * so this series shows steps the noise between separate jobs hides.
 */
export const againstBase = (metric: string): string => `${metric}${AGAINST_BASE}`

const pairedMetricOf = (metric: string): string | null =>
  metric.endsWith(AGAINST_BASE) ? metric.slice(0, -AGAINST_BASE.length) : null

/** Whether a step is of a series of paired changes. */
export const isAgainstBase = (s: { metric: string }): boolean => pairedMetricOf(s.metric) !== null

/** An entry's figure of `metric`: seconds, or head ÷ base for a paired series; NaN when none. */
function figure(e: HistoryEntry, metric: string): number {
  const paired = pairedMetricOf(metric)
  if (paired === null) return e.best[metric] ?? NaN
  const c = e.paired?.change[paired]
  return c ? 1 + c.change : NaN
}

/**
 * The metrics a series is searched in: its headline first, then every other published metric
 * (its hops), so a change too small for the headline's noise still shows where it happened;
 * then those the newest entry compared against a paired base.
 */
const searchedMetrics = (entries: readonly HistoryEntry[]): string[] => {
  const newest = entries.at(-1)
  if (!newest) return []
  const { headline } = newest
  return [
    headline,
    ...new Set(entries.flatMap(e => e.metrics).filter(m => m !== headline)),
    ...Object.keys(newest.paired?.change ?? {}).map(againstBase)
  ]
}

/**
 * `find` over every series of `entries` (oldest first; any mix of cases and profiles, since
 * entries measured alike share their case and profile) and every metric it is searched in.
 */
export const searchSeries = (
  entries: readonly HistoryEntry[],
  find: (series: HistoryEntry[], metric: string) => TrendStep[]
): TrendStep[] => alike(entries).flatMap(g => searchedMetrics(g).flatMap(metric => find(g, metric)))

/**
 * The steps a series' entries show (entries newest first, as render holds them): change points
 * of its headline and of each other metric, found within each group of entries measured alike,
 * newest first.
 */
export function stepsOfSeries(entries: readonly HistoryEntry[]): TrendStep[] {
  return searchSeries([...entries].reverse(), seriesSteps).sort(newerFirst)
}

/** Steps by when their first entry at the new level was recorded, newest first. */
export const newerFirst = (a: TrendStep, b: TrendStep): number =>
  Date.parse(b.firstAfter.timestampEval) - Date.parse(a.firstAfter.timestampEval)

/** Whether a step is of its series' headline: the figure its static trend chart plots and marks. */
export const ofHeadline = (s: TrendStep): boolean => s.metric === s.firstAfter.headline

/**
 * Whether a step is of the metric its case is judged by (`path` for a GNES case at minimal or
 * paced load): the figure a push alerts on and a bisect searches, as a pull request's verdict.
 * Where the entries were paired against a base, its series of paired changes (`path vs base`)
 * is that figure, and the metric's own series, which separate jobs' noise moves, is not.
 */
export function ofVerdictMetric(s: TrendStep): boolean {
  const metric = verdictMetric(s.firstAfter)
  return s.firstAfter.paired?.change[metric]
    ? s.metric === againstBase(metric)
    : s.metric === metric
}

/** Slower is a regression in every metric this project publishes (seconds). */
export const isRegression = (s: Step): boolean => s.change > 0

/** A step of one metric of one series, with the entries on either side of it. */
export interface TrendStep extends Step {
  caseId: string
  metric: string
  /**
   * The last entry at the old level and the first at the new: the commit range of the step (a
   * spell's entries lie between them).
   */
  lastBefore: HistoryEntry
  firstAfter: HistoryEntry
}

/**
 * The detection the report, pushes, alerts and bisect run: Otava's frame with the rank-sum test,
 * so a spell of a few entries far off cannot hide the steps around it, and a step must move its
 * metric's level by at least 1 %. A very stable hop (a send gap of tens of microseconds)
 * otherwise shows sub-percent steps that are real and mean nothing to anyone reading latency.
 */
export const STEP_OPTIONS: ChangePointOptions = { ...ROBUST_DEFAULTS, minMagnitude: 0.01 }

/** The same with Otava's own t-test, the reference the rank test is compared with. */
export const REFERENCE_STEP_OPTIONS: ChangePointOptions = { ...OTAVA_DEFAULTS, minMagnitude: 0.01 }

/**
 * Entries of `entries` (oldest first) that carry `metric`, in order; for a paired series, those
 * paired against the newest one's base, since changes against another base do not compare.
 */
function carrying(entries: readonly HistoryEntry[], metric: string): HistoryEntry[] {
  const at = entries.filter(e => Number.isFinite(figure(e, metric)))
  if (pairedMetricOf(metric) === null) return at
  const base = at.at(-1)?.paired?.base
  return at.filter(e => e.paired?.base === base)
}

function located(at: HistoryEntry[], metric: string, s: Step): TrendStep {
  return {
    ...s,
    caseId: at[s.index].caseId,
    metric,
    lastBefore: at[s.index - 1 - s.spell],
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
    at.map(e => figure(e, metric)),
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
    at.map(e => figure(e, metric)),
    known,
    options
  ).map(s => located(at, metric, s))
}
