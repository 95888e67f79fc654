import * as fs from 'node:fs'
import * as path from 'node:path'
import * as vega from 'vega'
import { compile, type TopLevelSpec } from 'vega-lite'
import type { HistoryEntry } from '../history/schema'
import { assetPath } from '../paths'
import { buildTime, commitRef, versionLabel } from './format'
import { hopMetrics } from './metrics'

/** A Vega-Lite spec template: JSON whose strings may hold `{{name}}` placeholders. */
export type SpecTemplate = Record<string, unknown>
export interface ChartTemplates {
  trend: SpecTemplate
  hops: SpecTemplate
}

export const CHART_TEMPLATE_NAMES = ['trend', 'hops'] as const

export function loadChartTemplates(dir = assetPath('templates', 'charts')): ChartTemplates {
  const read = (name: string): SpecTemplate =>
    JSON.parse(fs.readFileSync(path.join(dir, `${name}.vl.json`), 'utf8')) as SpecTemplate
  return { trend: read('trend'), hops: read('hops') }
}

type Params = Record<string, unknown>

/**
 * Substitutes placeholders: a string that is exactly `{{name}}` becomes the parameter's value
 * (which may be an array), and placeholders inside longer strings are replaced as text.
 */
export function fillTemplate(node: unknown, params: Params): unknown {
  if (typeof node === 'string') {
    const whole = /^\{\{(\w+)\}\}$/.exec(node)
    if (whole && whole[1] in params) return params[whole[1]]
    return node.replace(/\{\{(\w+)\}\}/g, (m, k: string) => (k in params ? String(params[k]) : m))
  }
  if (Array.isArray(node)) return node.map(n => fillTemplate(n, params))
  if (node && typeof node === 'object') {
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, fillTemplate(v, params)]))
  }
  return node
}

/**
 * Trend charts leave out zero so small changes between versions show, except when every value is
 * the same (one entry): a zero-width scale would put the point on a meaningless tick.
 */
export const zeroBased = (rows: readonly { value: number }[]): boolean =>
  new Set(rows.map(r => r.value)).size < 2

function withData(template: SpecTemplate, params: Params, values: object[]): TopLevelSpec {
  const spec = fillTemplate(template, params) as Record<string, unknown>
  return { ...spec, data: { values } } as TopLevelSpec
}

export const SERIES = {
  roundtrip: 'roundtrip (best run mean)',
  dataRate: 'data rate (payload MB / s)',
  legacy: 'legacy “MB/s” = docs ÷ roundtrip, not a data rate'
} as const

interface PointRow {
  version: string
  order: number
  value: number
  series: string
  built: string
  evaluated: string
  commit: string
  message: string
}

/** Entries newest first in, one row per entry that has the value, oldest build ordered first. */
function pointRows(
  entries: readonly HistoryEntry[],
  series: string,
  value: (e: HistoryEntry) => number | null | undefined
): PointRow[] {
  const rows: PointRow[] = []
  entries.forEach((e, i) => {
    const v = value(e)
    if (v === null || v === undefined || !Number.isFinite(v)) return
    rows.push({
      version: versionLabel(e),
      order: entries.length - i,
      value: v,
      series,
      built: buildTime(e),
      evaluated: e.timestampEval,
      commit: commitRef(e)?.sha.slice(0, 7) ?? '',
      message: (e.commit.message ?? '').split('\n')[0]
    })
  })
  return rows
}

export interface ChartSpec {
  /** File stem: `case-<id>-<kind>`. */
  name: string
  kind: 'roundtrip' | 'rate' | 'hops'
  spec: TopLevelSpec
  /** Marks the chart draws (points, or stacked bar segments). */
  marks: number
}

/** The three charts of one case (a chart without any data is left out); entries newest first. */
export function caseCharts(
  caseId: string,
  caseName: string,
  entries: readonly HistoryEntry[],
  templates: ChartTemplates
): ChartSpec[] {
  const title = `Case ${caseId}: ${caseName}`
  const charts: ChartSpec[] = []
  const trend = (kind: 'roundtrip' | 'rate', rows: PointRow[], axis: Params): void => {
    if (!rows.length) return
    const params = { title, ...axis, zero: zeroBased(rows) }
    const spec = withData(templates.trend, params, rows)
    charts.push({ name: `case-${caseId}-${kind}`, kind, spec, marks: rows.length })
  }
  trend(
    'roundtrip',
    pointRows(entries, SERIES.roundtrip, e => e.best.roundtrip),
    {
      subtitle: 'roundtrip per entry',
      yTitle: 'roundtrip (s)',
      format: '.3f'
    }
  )
  trend(
    'rate',
    [
      ...pointRows(entries, SERIES.dataRate, e => e.dataRateMBps),
      ...pointRows(entries, SERIES.legacy, e => e.legacyMBps)
    ],
    { subtitle: 'data rate, and the legacy figure', yTitle: 'MB/s', format: '.1f' }
  )
  const hops = hopRows(entries)
  if (hops.rows.length) {
    const spec = withData(
      templates.hops,
      { title, subtitle: 'where the time goes', hopOrder: hops.order },
      hops.rows
    )
    charts.push({ name: `case-${caseId}-hops`, kind: 'hops', spec, marks: hops.rows.length })
  }
  return charts
}

/** Mean of each hop per version, pre-aggregated so the stacked bars add up to a mean path time. */
export function hopRows(entries: readonly HistoryEntry[]): { order: string[]; rows: object[] } {
  const all = new Set<string>()
  for (const e of entries) for (const m of e.metrics) all.add(m)
  const order = hopMetrics([...all])
  const groups = new Map<string, { order: number; sums: number[]; counts: number[] }>()
  entries.forEach((e, i) => {
    const version = versionLabel(e)
    let g = groups.get(version)
    if (!g) {
      g = { order: 0, sums: order.map(() => 0), counts: order.map(() => 0) }
      groups.set(version, g)
    }
    // Entries arrive newest first, so the last one seen gives the version its oldest position.
    g.order = entries.length - i
    order.forEach((m, j) => {
      const v = e.best[m]
      if (v === undefined || !Number.isFinite(v)) return
      g!.sums[j] += v
      g!.counts[j] += 1
    })
  })
  const rows: object[] = []
  for (const [version, g] of groups) {
    order.forEach((hop, j) => {
      if (g.counts[j] === 0) return
      const value = g.sums[j] / g.counts[j]
      rows.push({ version, order: g.order, hop, position: j, value, runs: g.counts[j] })
    })
  }
  return { order, rows }
}

/** Server-side rendering: Vega-Lite → Vega → SVG text, with no browser and no canvas. */
export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  // A README shows the SVG as an image, where per-mark ARIA labels are unreachable bytes (about
  // half the file); the interactive dashboard keeps them.
  const config = { ...spec.config, aria: false }
  const view = new vega.View(vega.parse(compile({ ...spec, config } as TopLevelSpec).spec), {
    renderer: 'none'
  })
  try {
    return await view.toSVG()
  } finally {
    view.finalize()
  }
}
