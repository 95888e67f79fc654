import { roundMicros } from '../history/from-result'
import type { HistoryEntry } from '../history/schema'
import { safeUrl } from '../text/escape'
import { buildTime, commitRef, fmtTime, versionLabel } from './format'
import { SERIES } from './charts'
import { hopMetrics } from './metrics'

export const DASHBOARD_SCHEMA = 'gnes-latency-bench/dashboard@1'

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
}

export interface DashboardCase {
  id: string
  name: string
  description: string
  metrics: string[]
  /** Hop metrics in path order; the page averages them per version as the README's hop chart. */
  hops: string[]
}

export interface DashboardData {
  schema: typeof DASHBOARD_SCHEMA
  labels: Record<string, string>
  cases: DashboardCase[]
  /** Per case id, newest first; samples and per-run summaries are left out to keep it small. */
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
    legacyMBps: e.legacyMBps === null ? null : roundMicros(e.legacyMBps)
  }
}

export interface DashboardCaseInput {
  id: string
  name: string
  description: string
  metrics: string[]
  /** All entries of the case, newest first. */
  entries: HistoryEntry[]
}

export function dashboardData(cases: DashboardCaseInput[], repositoryUrl?: string): DashboardData {
  return {
    schema: DASHBOARD_SCHEMA,
    labels: { dataRateMBps: SERIES.dataRate, legacyMBps: SERIES.legacy },
    cases: cases.map(c => ({
      id: c.id,
      name: c.name,
      description: c.description,
      metrics: c.metrics,
      hops: hopMetrics(c.metrics)
    })),
    entries: Object.fromEntries(
      cases.map(c => [c.id, c.entries.map(e => dashboardEntry(e, repositoryUrl))])
    )
  }
}
