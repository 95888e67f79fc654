import * as fs from 'node:fs'
import * as path from 'node:path'
import { profileKey, type Profile } from '../client/profile'
import { seriesKey, type HistoryEntry } from '../history/schema'
import { assetPath } from '../paths'
import type { Topology } from '../topology/schema'
import {
  CHART_TEMPLATE_NAMES,
  loadChartTemplates,
  renderSvg,
  seriesCharts,
  type ChartSpec
} from './charts'
import { DASHBOARD_ASSETS, dashboardData } from './dashboard'
import { compareCaseIds, newestFirst } from './format'
import { metricOrder } from './metrics'
import { readmeContext, renderReadme } from './readme'

export { jobSummary } from './summary'
export { topologyMermaid } from './mermaid'

export interface RenderOptions {
  entries: HistoryEntry[]
  /** Topologies by case id; a case without one gets no diagram. */
  topologies: Record<string, Topology>
  outDir: string
  /** A user's Handlebars README template; templates/README.template.md when absent. */
  template?: string
  /** Rows per case in the README tables and points in the static charts (newest first). */
  maxEntries: number
  /** Base for commit links of entries that record no repository, e.g. https://github.com/o/r. */
  repositoryUrl?: string
}

/** Entries of one case and profile, newest first, with what the README and dashboard show of them. */
export interface Series {
  caseId: string
  caseName: string
  key: string
  /** The newest entry's profile (a sweep's rates change from run to run). */
  profile: Profile
  entries: HistoryEntry[]
  shown: HistoryEntry[]
  metrics: string[]
  charts: ChartSpec[]
}

/** Minimal load first (the headline), then paced, burst and sweep; rates ascending within a kind. */
const PROFILE_ORDER = ['minimal', 'paced', 'burst', 'sweep']
const rateOf = (p: Profile): number => ('rate' in p ? p.rate : 0)
const compareProfiles = (a: Profile, b: Profile): number =>
  PROFILE_ORDER.indexOf(a.kind) - PROFILE_ORDER.indexOf(b.kind) || rateOf(a) - rateOf(b)

/** Groups entries into series: cases in natural id order, profiles in PROFILE_ORDER within. */
export function bySeries(entries: readonly HistoryEntry[]): HistoryEntry[][] {
  const groups = new Map<string, HistoryEntry[]>()
  for (const e of entries) {
    const key = seriesKey(e)
    groups.set(key, [...(groups.get(key) ?? []), e])
  }
  return [...groups.values()]
    .map(newestFirst)
    .sort(
      (a, b) =>
        compareCaseIds(a[0].caseId, b[0].caseId) || compareProfiles(a[0].profile, b[0].profile)
    )
}

const CHART_FILE = /^case-[\w.-]+-(roundtrip|rate|hops|latency|curve|throughput)\.(svg|vl\.json)$/

/**
 * Writes README.md, charts/*.svg with their Vega-Lite specs, and the dashboard (index.html, its
 * scripts, data/history.json) under outDir. Returns the absolute paths written.
 */
export async function renderReport(o: RenderOptions): Promise<string[]> {
  if (!Number.isInteger(o.maxEntries) || o.maxEntries < 1) {
    throw new Error(`max-entries must be a whole number of at least 1, got ${o.maxEntries}`)
  }
  const templates = loadChartTemplates()
  const readmeTemplate = fs.readFileSync(
    o.template ?? assetPath('templates', 'README.template.md'),
    'utf8'
  )
  const written: string[] = []
  const write = (rel: string, content: string | Buffer): void => {
    const file = path.join(o.outDir, rel)
    fs.mkdirSync(path.dirname(file), { recursive: true })
    fs.writeFileSync(file, content)
    written.push(file)
  }

  const series: Series[] = bySeries(o.entries).map(entries => {
    const caseId = entries[0].caseId
    const caseName = o.topologies[caseId]?.name ?? entries[0].caseName
    const profile = entries[0].profile
    const shown = entries.slice(0, o.maxEntries)
    return {
      caseId,
      caseName,
      key: profileKey(profile),
      profile,
      entries,
      shown,
      metrics: metricOrder(entries),
      charts: seriesCharts({ caseId, caseName, profile, entries: shown }, templates)
    }
  })

  for (const s of series) {
    for (const chart of s.charts) {
      write(`charts/${chart.name}.vl.json`, `${JSON.stringify(chart.spec, null, 2)}\n`)
      write(`charts/${chart.name}.svg`, await renderSvg(chart.spec))
    }
  }
  removeStaleCharts(path.join(o.outDir, 'charts'), written)

  const context = readmeContext(series, o.topologies, o.repositoryUrl)
  write('README.md', renderReadme(readmeTemplate, context))

  const shipped = assetPath('templates', 'dashboard')
  for (const rel of DASHBOARD_ASSETS)
    write(rel, fs.readFileSync(path.join(shipped, rel.replace(/^dashboard\//, ''))))
  write(
    'dashboard/charts.json',
    JSON.stringify(Object.fromEntries(CHART_TEMPLATE_NAMES.map(n => [n, templates[n]])))
  )
  write('data/history.json', JSON.stringify(dashboardData(series, o.topologies, o.repositoryUrl)))
  return written
}

/** Charts of cases no longer in the history would linger on gh-pages; only our own names go. */
function removeStaleCharts(dir: string, keep: readonly string[]): void {
  if (!fs.existsSync(dir)) return
  const kept = new Set(keep.map(f => path.resolve(f)))
  for (const name of fs.readdirSync(dir)) {
    const file = path.resolve(dir, name)
    if (CHART_FILE.test(name) && !kept.has(file)) fs.rmSync(file)
  }
}
