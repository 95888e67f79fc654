import { profileLabel, type Profile } from '../client/profile'
import { roundMicros } from '../history/from-result'
import type { HistoryEntry } from '../history/schema'
import type { Topology } from '../topology/schema'
import { safeUrl } from '../text/escape'
import { buildTime, commitRef, fmtTime, versionLabel } from './format'
import { SERIES, SWEEP_CURVES } from './charts'
import { hopMetrics } from './metrics'

export const DASHBOARD_SCHEMA = 'gnes-latency-bench/dashboard@2'

/** Files of the dashboard, relative to the output directory, copied from templates/dashboard. */
export const DASHBOARD_ASSETS = [
  'index.html',
  'dashboard/app.js',
  'dashboard/style.css',
  'dashboard/vendor/vega.min.js',
  'dashboard/vendor/vega-lite.min.js',
  'dashboard/vendor/vega-embed.min.js',
  'dashboard/vendor/LICENSES.txt'
] as const

export interface DashboardEntry {
  id: string
  version: string
  built: string
  evaluated: string
  origin: HistoryEntry['origin']
  ref: string
  commit: string
  url: string | null
  message: string
  best: Record<string, number>
  dataRateMBps: number | null
  legacyMBps: number | null
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

/** One series: a case under one load profile. */
export interface DashboardCase {
  /** `<case id>/<profile key>`. */
  id: string
  caseId: string
  name: string
  profile: string
  kind: Profile['kind']
  description: string
  metrics: string[]
  /** Hop metrics in path order; the page averages them per version as the README's hop chart. */
  hops: string[]
}

export interface DashboardData {
  schema: typeof DASHBOARD_SCHEMA
  labels: Record<string, string>
  /** Sweep curves of this many newest entries share one chart, as in the README. */
  sweepCurves: number
  cases: DashboardCase[]
  /** Per series id, newest first; samples and per-run summaries are left out to keep it small. */
  entries: Record<string, DashboardEntry[]>
}

export function dashboardEntry(e: HistoryEntry, repositoryUrl?: string): DashboardEntry {
  const ref = commitRef(e, repositoryUrl)
  return {
    id: e.id,
    version: versionLabel(e),
    built: fmtTime(buildTime(e)),
    evaluated: fmtTime(e.timestampEval),
    origin: e.origin,
    ref: e.commit.ref ?? '',
    commit: ref?.sha.slice(0, 7) ?? '',
    url: safeUrl(ref?.url ?? null),
    message: (e.commit.message ?? '').split('\n')[0],
    best: Object.fromEntries(Object.entries(e.best).map(([m, v]) => [m, roundMicros(v)])),
    dataRateMBps: e.dataRateMBps === null ? null : roundMicros(e.dataRateMBps),
    legacyMBps: e.legacyMBps === null ? null : roundMicros(e.legacyMBps),
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

export interface DashboardSeriesInput {
  caseId: string
  caseName: string
  key: string
  profile: Profile
  metrics: string[]
  /** All entries of the series, newest first. */
  entries: HistoryEntry[]
}

export function dashboardData(
  series: DashboardSeriesInput[],
  topologies: Record<string, Topology>,
  repositoryUrl?: string
): DashboardData {
  const id = (s: DashboardSeriesInput): string => `${s.caseId}/${s.key}`
  return {
    schema: DASHBOARD_SCHEMA,
    labels: {
      dataRateMBps: SERIES.dataRate,
      legacyMBps: SERIES.legacy,
      maxThroughput: SERIES.maxThroughput
    },
    sweepCurves: SWEEP_CURVES,
    cases: series.map(s => ({
      id: id(s),
      caseId: s.caseId,
      name: s.caseName,
      profile: profileLabel(s.profile),
      kind: s.profile.kind,
      description: topologies[s.caseId]?.description ?? '',
      metrics: s.metrics,
      hops: hopMetrics(s.metrics)
    })),
    entries: Object.fromEntries(
      series.map(s => [id(s), s.entries.map(e => dashboardEntry(e, repositoryUrl))])
    )
  }
}
