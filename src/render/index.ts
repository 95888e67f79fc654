import * as fs from 'node:fs'
import * as path from 'node:path'
import { monthOf } from '../history/layout'
import type { CaseView } from '../history/render-hook'
import type { HistoryEntry } from '../history/schema'
import { assetPath } from '../paths'
import type { Topology } from '../topology/schema'
import { caseCharts, CHART_TEMPLATE_NAMES, loadChartTemplates, renderSvg } from './charts'
import {
  casesScript,
  chartsScript,
  DASHBOARD_ASSETS,
  dashboardCase,
  mergeMonthData,
  MONTH_DATA_FILE,
  monthDataPath
} from './dashboard'
import { compareCaseIds, newestFirst } from './format'
import { metricOrder } from './metrics'
import { readmeContext, renderReadme } from './readme'

export { jobSummary } from './summary'
export { topologyMermaid } from './mermaid'
export { mergeMonthData, monthDataPath } from './dashboard'

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

export type StaticOptions = Omit<RenderOptions, 'entries'> & { cases: CaseView[] }

/** Groups entries by case, newest first within a case and cases in natural id order. */
export function byCase(entries: readonly HistoryEntry[]): [string, HistoryEntry[]][] {
  const groups = new Map<string, HistoryEntry[]>()
  for (const e of entries) {
    const list = groups.get(e.caseId) ?? []
    list.push(e)
    groups.set(e.caseId, list)
  }
  return [...groups.entries()]
    .sort(([a], [b]) => compareCaseIds(a, b))
    .map(([id, list]) => [id, newestFirst(list)])
}

const CHART_FILE = /^case-[\w-]+-(roundtrip|rate|hops)\.(svg|vl\.json)$/

function writer(outDir: string, written: string[]) {
  return (rel: string, content: string | Buffer): void => {
    const file = path.join(outDir, rel)
    fs.mkdirSync(path.dirname(file), { recursive: true })
    fs.writeFileSync(file, content)
    written.push(file)
  }
}

/**
 * Writes what depends only on each case's newest entries: README.md, charts/*.svg with their
 * Vega-Lite specs, the dashboard page and its case list. Returns the absolute paths written.
 */
export async function renderStatic(o: StaticOptions): Promise<string[]> {
  if (!Number.isInteger(o.maxEntries) || o.maxEntries < 1) {
    throw new Error(`max-entries must be a whole number of at least 1, got ${o.maxEntries}`)
  }
  const templates = loadChartTemplates()
  const readmeTemplate = fs.readFileSync(
    o.template ?? assetPath('templates', 'README.template.md'),
    'utf8'
  )
  const written: string[] = []
  const write = writer(o.outDir, written)

  const cases = [...o.cases]
    .sort((a, b) => compareCaseIds(a.id, b.id))
    .map(view => {
      const recent = newestFirst(view.recent)
      const shown = recent.slice(0, o.maxEntries)
      const name = o.topologies[view.id]?.name ?? recent[0]?.caseName ?? view.id
      return {
        id: view.id,
        name,
        description: o.topologies[view.id]?.description ?? '',
        total: view.total,
        months: view.months,
        shown,
        metrics: metricOrder(recent),
        charts: caseCharts(view.id, name, shown, templates)
      }
    })

  for (const c of cases) {
    for (const chart of c.charts) {
      write(`charts/${chart.name}.vl.json`, `${JSON.stringify(chart.spec, null, 2)}\n`)
      write(`charts/${chart.name}.svg`, await renderSvg(chart.spec))
    }
  }
  removeStaleCharts(path.join(o.outDir, 'charts'), written)

  const context = readmeContext(cases, o.topologies, o.repositoryUrl)
  write('README.md', renderReadme(readmeTemplate, context))

  const shipped = assetPath('templates', 'dashboard')
  for (const rel of DASHBOARD_ASSETS)
    write(rel, fs.readFileSync(path.join(shipped, rel.replace(/^dashboard\//, ''))))
  write(
    'dashboard/charts.js',
    chartsScript(Object.fromEntries(CHART_TEMPLATE_NAMES.map(n => [n, templates[n]])))
  )
  write(
    'data/cases.js',
    casesScript(
      cases.map(c =>
        dashboardCase({
          id: c.id,
          name: c.name,
          description: c.description,
          metrics: c.metrics,
          months: c.months,
          total: c.total
        })
      )
    )
  )
  return written
}

/**
 * Writes the whole report from the whole history: renderStatic plus one dashboard data file per
 * case and month (files of months no longer in the history are removed). Returns the paths written.
 */
export async function renderReport(o: RenderOptions): Promise<string[]> {
  const groups = byCase(o.entries)
  const written = await renderStatic({
    ...o,
    cases: groups.map(([id, entries]) => ({
      id,
      recent: entries.slice(0, o.maxEntries),
      total: entries.length,
      months: [...new Set(entries.map(e => monthOf(e.timestampEval)))].sort().reverse()
    }))
  })
  const write = writer(o.outDir, written)
  const data = new Set<string>()
  for (const [id, entries] of groups) {
    const months = new Map<string, HistoryEntry[]>()
    for (const e of entries) {
      const m = monthOf(e.timestampEval)
      months.set(m, [...(months.get(m) ?? []), e])
    }
    for (const [month, list] of months) {
      const rel = monthDataPath(id, month)
      data.add(rel)
      write(rel, mergeMonthData(rel, id, month, null, list, o.repositoryUrl))
    }
  }
  removeStaleData(o.outDir, data)
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

/** Month data files of pruned months or cases; only files named as ours go. */
function removeStaleData(outDir: string, keep: Set<string>): void {
  const data = path.join(outDir, 'data')
  if (!fs.existsSync(data)) return
  for (const d of fs.readdirSync(data, { withFileTypes: true })) {
    if (!d.isDirectory()) continue
    for (const name of fs.readdirSync(path.join(data, d.name))) {
      const rel = `data/${d.name}/${name}`
      if (MONTH_DATA_FILE.test(rel) && !keep.has(rel)) fs.rmSync(path.join(outDir, rel))
    }
  }
}
