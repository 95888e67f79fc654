import type { Profile } from '../profile/definition'
import { traitsOf, type ProfileTraits } from '../profile/traits'
import { roundMicros } from '../result/resolution'
import { encodeSegment } from '../site/layout'
import { seriesKey, type HistoryEntry } from '../history/schema'
import { safeUrl } from '../text/escape'
import { fmtTime } from '../text/timestamp'
import { buildTime, commitRef, metricUnit, versionLabel, type MetricUnit } from './format'
import { HOP_ENTRIES, SERIES, SWEEP_CURVES } from './charts'
import { headlineTail } from './tail'
import { againstBase } from '../trend/series'
import {
  AGAINST_BASE_DOC,
  describeMetric,
  hopColors,
  hopMetrics,
  RATE_DOCS,
  UNACCOUNTED
} from './metrics'

const DASHBOARD_SCHEMA = 'gnes-latency-bench/dashboard@3'

/** What the page shows of one entry: no samples or per-run summaries, to keep the data small. */
interface DashboardEntry {
  id: string
  /** The entry's series (`<case id>/<profile key>`): a case's month file holds all its profiles. */
  series: string
  version: string
  built: string
  evaluated: string
  origin: 'bench' | 'legacy'
  ref: string
  commit: string
  url: string | null
  message: string
  best: Record<string, number>
  /** A paced entry's headline p90 and p99 (headlineTail); null for other profiles. */
  tail: { p90: number; p99: number } | null
  dataRateMBps: number | null
  legacyMBps: number | null
  /**
   * A paired run's change against its base (head ÷ base − 1) by the name of its series
   * (`path vs base`), and what the base was; null for an entry of a suite on its own.
   */
  paired: { base: string; change: Record<string, number> } | null
  /** A sweep's steps (percentiles only) and maximum throughput; null for other profiles. */
  sweep: {
    maxThroughput: number | null
    points: {
      offered: number
      achieved: number
      p50: number
      p99: number
      errors: number
      sustained: boolean
    }[]
  } | null
}

function tailOf(e: HistoryEntry): DashboardEntry['tail'] {
  const t = headlineTail(e)
  return t && { p90: roundMicros(t.p90), p99: roundMicros(t.p99) }
}

function dashboardEntry(e: HistoryEntry, repositoryUrl?: string): DashboardEntry {
  const ref = commitRef(e, repositoryUrl)
  return {
    id: e.id,
    series: seriesKey(e),
    version: versionLabel(e),
    built: fmtTime(buildTime(e)),
    evaluated: fmtTime(e.timestampEval),
    origin: e.origin,
    ref: e.commit.ref ?? '',
    commit: ref?.sha.slice(0, 7) ?? '',
    url: safeUrl(ref?.url ?? null),
    message: (e.commit.message ?? '').split('\n')[0],
    best: Object.fromEntries(Object.entries(e.best).map(([m, v]) => [m, roundMicros(v)])),
    tail: tailOf(e),
    dataRateMBps: e.dataRateMBps === null ? null : roundMicros(e.dataRateMBps),
    legacyMBps: e.legacyMBps === null ? null : roundMicros(e.legacyMBps),
    paired: e.paired
      ? {
          base: e.paired.base,
          change: Object.fromEntries(
            Object.entries(e.paired.change).map(([m, c]) => [againstBase(m), roundMicros(c.change)])
          )
        }
      : null,
    sweep: e.sweep && {
      maxThroughput: e.sweep.maxThroughput,
      points: e.sweep.points.map(p => ({
        offered: p.offered,
        achieved: roundMicros(p.achieved),
        p50: roundMicros(p.latency.p50),
        p99: roundMicros(p.latency.p99),
        errors: p.errors,
        sustained: p.sustained
      }))
    }
  }
}

/**
 * What the page reads of a series' profile (profile/traits.ts), so that it never asks for a kind:
 * a new kind draws as its traits say.
 */
export interface DashboardTraits {
  /** Its charts and table: runs' metrics (`burst`, `paced`), or a sweep's throughput. */
  chart: ProfileTraits['chart']
  /** Whether it offers data rates: a burst chart's, of GNES (a generic case has none). */
  rates: boolean
  /** Whether its entries carry the headline's p90 and p99: a run's median is published. */
  paced: boolean
  /** What a run's hop bars stack: its means (the burst's figure) or its medians. */
  figure: 'mean' | 'median'
}

/** The page's traits of a series of `profile`, of GNES or of generic services (`gnes`). */
export function dashboardTraits(profile: Profile, gnes: boolean): DashboardTraits {
  const t = traitsOf(profile)
  return {
    chart: t.chart,
    rates: t.chart === 'burst' && gnes,
    paced: t.publishes === 'run-median',
    figure: t.publishes === 'run-mean' ? 'mean' : 'median'
  }
}

/** One series of the page's selector: a case under one load profile. */
interface DashboardCase {
  /** `<case id>/<profile key>`, as entries' `series`. */
  id: string
  caseId: string
  name: string
  /** The profile's label, e.g. `minimal load (paced, 5 req/s)`. */
  profile: string
  traits: DashboardTraits
  /** Whether the series is of GNES (its points coloured by release) or of generic services. */
  gnes: boolean
  /** The x axis: GNES versions, or a generic case's commits. */
  xTitle: string
  description: string
  metrics: string[]
  /** Hop metrics in path order; the page averages them per version as the README's hop chart. */
  hops: string[]
  /** Each hop's colour, as in the README's charts (hopColors). */
  hopColors: string[]
  /**
   * Months of the case holding entries, as ranges of consecutive months (`2010-01..2016-11`),
   * newest first: the page loads `data/<file>/<DDD0>s/<YYYY>/<MM>.js` for each month they hold. Ranges
   * keep this file, which every append rewrites, from growing with the length of the history.
   */
  months: string[]
  /** Entries of the whole case (all its profiles). */
  total: number
  /** The case's folder under data/ (its id, encoded as entry paths are). */
  file: string
  /** The metric the series is judged and alerted by. */
  headline: string
  /**
   * The newest entry's paired base and the series of its changes the page offers beside the
   * metrics (`path vs base`): only entries paired against that base are drawn in them.
   */
  paired: { base: string; metrics: string[] } | null
  /** Change points among the newest entries, newest first: each marked on its metric's trend. */
  steps: { id: string; metric: string; text: string; label: string; color: string; when: string }[]
}

/**
 * The page loads its data as scripts, not with fetch(), so it works from file:// as over HTTP.
 * Each file calls one function of `window.glbData`; `<` is escaped so no text can end a script.
 */
const script = (fn: string, payload: unknown): string =>
  `window.glbData.${fn}(${JSON.stringify(payload)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')});\n`

const newestFirst = (a: DashboardEntry, b: DashboardEntry): number =>
  a.built < b.built
    ? 1
    : a.built > b.built
      ? -1
      : a.evaluated < b.evaluated
        ? 1
        : a.evaluated > b.evaluated
          ? -1
          : a.id < b.id
            ? -1
            : 1

/**
 * One case and month of the dashboard's data (`monthDataPath`), every profile's entries newest
 * first: an append rewrites one small file per case and month, never one that grows with the
 * whole history.
 */
export function monthData(
  caseId: string,
  month: string,
  entries: HistoryEntry[],
  repositoryUrl?: string
): string {
  const shown = entries.map(e => dashboardEntry(e, repositoryUrl)).sort(newestFirst)
  return script('month', { schema: DASHBOARD_SCHEMA, caseId, month, entries: shown })
}

/**
 * One sentence per metric the page can show, GNES's and generic cases' apart (their `latency`
 * differs): the README's metric list, so the page never shows a bare metric key.
 */
function metricDocs(
  cases: readonly DashboardCase[]
): Record<'gnes' | 'generic', Record<string, string>> {
  const docs = (generic: boolean): Record<string, string> => {
    const alike = cases.filter(c => c.gnes !== generic)
    const names = new Set(alike.flatMap(c => c.metrics))
    const paired = new Set(alike.flatMap(c => c.paired?.metrics ?? []))
    return Object.fromEntries([
      ...[...names].map(m => [m, describeMetric(m, generic)]),
      ...[...paired].map(m => [m, AGAINST_BASE_DOC]),
      ['maxThroughput', RATE_DOCS.maxThroughput],
      ...(generic
        ? []
        : [
            ['dataRateMBps', RATE_DOCS.dataRateMBps],
            ['legacyMBps', RATE_DOCS.legacyMBps]
          ])
    ])
  }
  return { gnes: docs(false), generic: docs(true) }
}

/** Each metric's unit and factor (`metricUnit`): CPU-ms and MiB never share an axis title with ms. */
function metricUnits(cases: readonly DashboardCase[]): Record<string, MetricUnit> {
  const names = new Set(cases.flatMap(c => c.metrics))
  return Object.fromEntries([...names].map(m => [m, metricUnit(m)]))
}

/**
 * `data/cases.js`: the page's title, labels and the series, each with its case's months the page
 * loads. The title names GNES only when the history holds a GNES case.
 */
export function casesScript(cases: DashboardCase[], title = 'GNES latency benchmark'): string {
  return script('cases', {
    schema: DASHBOARD_SCHEMA,
    title,
    labels: {
      dataRateMBps: SERIES.dataRate,
      legacyMBps: SERIES.legacy,
      maxThroughput: SERIES.maxThroughput
    },
    docs: metricDocs(cases),
    units: metricUnits(cases),
    /** The hop-chart segment of a generic case's rest, which the page computes per entry. */
    unaccounted: UNACCOUNTED,
    /** Sweep curves and hop bars of this many newest entries share one chart, as in the README. */
    sweepCurves: SWEEP_CURVES,
    hopEntries: HOP_ENTRIES,
    cases
  })
}

/** `dashboard/charts.js`: the chart templates, so the page draws exactly the README's charts. */
export const chartsScript = (templates: unknown): string => script('charts', templates)

/** What a series offers of its newest entry's paired changes (`DashboardCase.paired`). */
export function pairedOffer(shown: readonly HistoryEntry[]): DashboardCase['paired'] {
  const newest = shown[0]?.paired
  return newest ? { base: newest.base, metrics: Object.keys(newest.change).map(againstBase) } : null
}

export function dashboardCase(
  c: Omit<DashboardCase, 'hops' | 'hopColors' | 'file'>
): DashboardCase {
  const reported = hopMetrics(c.metrics)
  // A generic case's hops leave a rest (unaccountedTime), drawn as a segment of its own.
  const hops = reported.some(h => h.startsWith('hop:')) ? [...reported, UNACCOUNTED] : reported
  return { ...c, hops, hopColors: hopColors(hops), file: encodeSegment(c.caseId) }
}
