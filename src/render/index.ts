import * as fs from 'node:fs'
import * as path from 'node:path'
import type { HistoryEntry } from '../history/schema'
import { assetPath } from '../paths'
import type { Topology } from '../topology/schema'
import { caseCharts, CHART_TEMPLATE_NAMES, loadChartTemplates, renderSvg } from './charts'
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

  const cases = byCase(o.entries).map(([id, entries]) => {
    const shown = entries.slice(0, o.maxEntries)
    const name = o.topologies[id]?.name ?? entries[0].caseName
    return {
      id,
      name,
      description: o.topologies[id]?.description ?? '',
      entries,
      shown,
      metrics: metricOrder(entries),
      charts: caseCharts(id, name, shown, templates)
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
    'dashboard/charts.json',
    JSON.stringify(Object.fromEntries(CHART_TEMPLATE_NAMES.map(n => [n, templates[n]])))
  )
  write('data/history.json', JSON.stringify(dashboardData(cases, o.repositoryUrl)))
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
