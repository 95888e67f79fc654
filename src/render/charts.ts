import * as fs from 'node:fs'
import * as path from 'node:path'
import * as vega from 'vega'
import { compile, type TopLevelSpec } from 'vega-lite'
import type { HistoryEntry } from '../history/schema'
import { assetPath } from '../paths'
import { buildTime, commitRef, entryPoint, gnesRelease, versionLabel } from './format'
import { hopColors, hopMetrics, unaccountedTime, UNACCOUNTED } from './metrics'
import type { StepMark } from './steps'
import { headlineTail } from './tail'
import { profileKey, profileLabel, unanswered, type Profile } from '../profile/definition'
import { traitsOf } from '../profile/traits'

/** A Vega-Lite spec template: JSON whose strings may hold `{{name}}` placeholders. */
type SpecTemplate = Record<string, unknown>
export const CHART_TEMPLATE_NAMES = ['trend', 'hops', 'sweep'] as const
export type ChartTemplates = Record<(typeof CHART_TEMPLATE_NAMES)[number], SpecTemplate>

export function loadChartTemplates(dir = assetPath('templates', 'charts')): ChartTemplates {
  const read = (name: string): SpecTemplate =>
    JSON.parse(fs.readFileSync(path.join(dir, `${name}.vl.json`), 'utf8')) as SpecTemplate
  return Object.fromEntries(CHART_TEMPLATE_NAMES.map(n => [n, read(n)])) as ChartTemplates
}

type Params = Record<string, unknown>

/**
 * Substitutes placeholders: a string that is exactly `{{name}}` becomes the parameter's value
 * (which may be an array), and placeholders inside longer strings are replaced as text.
 */
function fillTemplate(node: unknown, params: Params): unknown {
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
const zeroBased = (rows: readonly { value: number }[]): boolean =>
  new Set(rows.map(r => r.value)).size < 2

export function withData(template: SpecTemplate, params: Params, values: object[]): TopLevelSpec {
  const spec = fillTemplate(template, params) as Record<string, unknown>
  return { ...spec, data: { values } } as TopLevelSpec
}

export const SERIES = {
  roundtrip: 'roundtrip (best run mean)',
  latency: 'latency at minimal load (best run median)',
  paced: 'latency (best run median)',
  maxThroughput: 'maximum sustainable throughput',
  dataRate: 'data rate (payload MB / s)',
  legacy: 'legacy “MB/s” = docs ÷ roundtrip, not a data rate'
} as const

/** The legend of a profile's headline trend. */
function headlineSeries(p: Profile): string {
  switch (p.kind) {
    case 'minimal':
      return SERIES.latency
    case 'paced':
      return SERIES.paced
    case 'burst':
      return SERIES.roundtrip
    case 'sweep':
      return SERIES.maxThroughput
    default:
      return unanswered(p)
  }
}

interface PointRow {
  /** The x position (`entryPoint`). */
  point: string
  version: string
  /** The GNES release, what the points are coloured by; the series for a generic case. */
  release: string
  order: number
  value: number
  series: string
  built: string
  evaluated: string
  commit: string
  message: string
  /** A paced entry's p90 and p99 (ms) in the run its median came from: the spread drawn. */
  p90?: number
  p99?: number
  /** On the first entry after a change point: what the step's rule says, and its colour. */
  step?: string
  stepLabel?: string
  stepColor?: string
}

const tailFields = (t: ReturnType<typeof headlineTail>) =>
  t ? { p90: t.p90 * 1000, p99: t.p99 * 1000 } : {}

const stepFields = (m: StepMark | undefined) =>
  m ? { step: m.text, stepLabel: m.label, stepColor: m.color } : {}

/**
 * Entries newest first in, one row per entry that has the value, oldest build ordered first;
 * `steps` puts the series' change points on the entries that begin them, `tail` a headline's
 * spread.
 */
function pointRows(
  entries: readonly HistoryEntry[],
  series: string,
  value: (e: HistoryEntry) => number | null | undefined,
  steps: ReadonlyMap<string, StepMark> = new Map(),
  tail?: (e: HistoryEntry) => ReturnType<typeof headlineTail>
): PointRow[] {
  const rows: PointRow[] = []
  entries.forEach((e, i) => {
    const v = value(e)
    if (v === null || v === undefined || !Number.isFinite(v)) return
    rows.push({
      point: entryPoint(e, entries.length - i),
      version: versionLabel(e),
      release: gnesRelease(e) ?? series,
      order: entries.length - i,
      value: v,
      series,
      built: buildTime(e),
      evaluated: e.timestampEval,
      commit: commitRef(e)?.sha.slice(0, 7) ?? '',
      message: (e.commit.message ?? '').split('\n')[0],
      ...tailFields(tail?.(e) ?? null),
      ...stepFields(steps.get(e.id))
    })
  })
  return rows
}

type ChartKind = 'roundtrip' | 'rate' | 'legacy' | 'hops' | 'latency' | 'curve' | 'throughput'

export interface ChartSpec {
  /** File stem: `case-<id>-<kind>` for a burst (the names charts had before profiles), else `case-<id>-<profile>-<kind>`. */
  name: string
  kind: ChartKind
  spec: TopLevelSpec
  /** Marks the chart draws (points, or stacked bar segments). */
  marks: number
}

/** The x axis of every trend: entries in recording order, each at its own place. */
export const ENTRY_AXIS_TITLE = 'entry, oldest → newest (number · commit)'

/** Stacked bars of this many newest entries share the hop chart, one bar per entry. */
export const HOP_ENTRIES = 12

/** One case and profile's entries, newest first: what one set of charts and one table show. */
interface SeriesInput {
  caseId: string
  caseName: string
  profile: Profile
  entries: readonly HistoryEntry[]
  /** Change points of the headline metric, by the first entry at the new level. */
  stepMarks?: ReadonlyMap<string, StepMark>
}

/** `minimal@0.5` → `minimal-0.5`: a profile key as a file-name part. */
const profileSlug = (p: Profile): string => profileKey(p).replace('@', '-')

const chartName = (caseId: string, p: Profile, kind: ChartKind): string =>
  traitsOf(p).chart === 'burst'
    ? `case-${caseId}-${kind}`
    : `case-${caseId}-${profileSlug(p)}-${kind}`

/** Sweep curves of this many newest entries share one chart; older ones would crowd it. */
export const SWEEP_CURVES = 3

/** A series' charts (a chart without any data is left out); entries newest first. */
export function seriesCharts(series: SeriesInput, templates: ChartTemplates): ChartSpec[] {
  const frame = seriesFrame(series, templates)
  const { profile } = series
  const chart = traitsOf(profile).chart
  if (chart === 'sweep') return sweepCharts(frame, series.entries)
  if (chart === 'burst') return burstCharts(frame, series)
  if (chart !== 'paced') return unanswered(chart)
  return latencyCharts(frame, series, profile)
}

/** What every chart of one series shares: its name, title, colours and templates. */
interface SeriesFrame {
  caseId: string
  profile: Profile
  title: string
  /** GNES entries are coloured by release, so a new version stands out; generic ones by series. */
  color: Params
  templates: ChartTemplates
}

function seriesFrame(series: SeriesInput, templates: ChartTemplates): SeriesFrame {
  return {
    caseId: series.caseId,
    profile: series.profile,
    title: `Case ${series.caseId}: ${series.caseName}`,
    color: series.entries.some(e => e.gnes !== null)
      ? { colorField: 'release', colorTitle: 'GNES release' }
      : { colorField: 'series', colorTitle: null },
    templates
  }
}

/** The chart of `rows`, or none without rows. */
function chart(
  f: SeriesFrame,
  kind: ChartKind,
  template: SpecTemplate,
  params: Params,
  rows: object[]
): ChartSpec[] {
  if (!rows.length) return []
  const spec = withData(template, { title: f.title, xTitle: ENTRY_AXIS_TITLE, ...params }, rows)
  return [{ name: chartName(f.caseId, f.profile, kind), kind, spec, marks: rows.length }]
}

const trendChart = (f: SeriesFrame, kind: ChartKind, rows: PointRow[], axis: Params): ChartSpec[] =>
  chart(f, kind, f.templates.trend, { ...axis, ...f.color, zero: zeroBased(rows) }, rows)

function hopChart(
  f: SeriesFrame,
  entries: readonly HistoryEntry[],
  axis: { yTitle: string; valueTitle: string; format: string }
): ChartSpec[] {
  const h = hopRows(entries, 1000)
  return chart(
    f,
    'hops',
    f.templates.hops,
    {
      subtitle: `where the time goes, newest ${HOP_ENTRIES} entries`,
      hopOrder: h.order,
      hopColors: hopColors(h.order),
      ...axis
    },
    h.rows
  )
}

function sweepCharts(f: SeriesFrame, entries: readonly HistoryEntry[]): ChartSpec[] {
  return [
    ...trendChart(
      f,
      'throughput',
      pointRows(entries, SERIES.maxThroughput, e => e.sweep?.maxThroughput),
      { subtitle: 'maximum sustainable throughput per entry', yTitle: 'requests/s', format: '.2f' }
    ),
    ...chart(
      f,
      'curve',
      f.templates.sweep,
      { subtitle: `throughput–latency, newest ${SWEEP_CURVES} entries (p50 solid, p99 dashed)` },
      sweepRows(entries.slice(0, SWEEP_CURVES), entries.length)
    )
  ]
}

function burstCharts(f: SeriesFrame, { entries, stepMarks }: SeriesInput): ChartSpec[] {
  const roundtrip = trendChart(
    f,
    'roundtrip',
    pointRows(entries, SERIES.roundtrip, e => ms(e.best.roundtrip), stepMarks),
    { subtitle: 'roundtrip per entry', yTitle: 'roundtrip (ms)', format: '.1f' }
  )
  // Data rates are GNES's (documents of a known size); a generic case has none. The legacy
  // figure, some 20 times the data rate, gets a chart of its own: on one axis it flattens the
  // real rate into a line.
  const rates = entries.some(e => e.gnes !== null)
    ? [
        ...trendChart(
          f,
          'rate',
          pointRows(entries, SERIES.dataRate, e => e.dataRateMBps),
          {
            subtitle: 'data rate: payload megabytes per second',
            yTitle: 'MB/s',
            format: '.1f'
          }
        ),
        ...trendChart(
          f,
          'legacy',
          pointRows(entries, SERIES.legacy, e => e.legacyMBps),
          {
            subtitle: 'the legacy figure: docs ÷ roundtrip, kept for imported history',
            yTitle: 'legacy “MB/s”',
            format: '.0f'
          }
        )
      ]
    : []
  const hops = hopChart(f, entries, {
    yTitle: 'mean ms per request, stacked by hop',
    valueTitle: 'mean (ms)',
    format: '.2f'
  })
  return [...roundtrip, ...rates, ...hops]
}

/** Minimal load and paced: latency, its p90 above a point where latency is the headline. */
function latencyCharts(
  f: SeriesFrame,
  { entries, stepMarks }: SeriesInput,
  profile: Profile
): ChartSpec[] {
  const label = headlineSeries(profile)
  const latency = trendChart(
    f,
    'latency',
    pointRows(
      entries,
      label,
      e => ms(e.best.latency),
      stepMarks,
      e => (e.headline === 'latency' ? headlineTail(e) : null)
    ),
    {
      subtitle: `${profileLabel(profile)}: latency per entry (the line above a point reaches its p90)`,
      yTitle: 'latency (ms)',
      format: '.1f'
    }
  )
  const hops = hopChart(f, entries, {
    yTitle: 'median ms per request, stacked by hop',
    valueTitle: 'median (ms)',
    format: '.2f'
  })
  return [...latency, ...hops]
}

const ms = (s: number | undefined): number | undefined => (s === undefined ? undefined : s * 1000)

/**
 * One row per step and percentile of each entry's sweep, for the throughput–latency curves;
 * `total` entries are shown on the trend, so each curve carries its number there.
 */
function sweepRows(entries: readonly HistoryEntry[], total: number): object[] {
  return entries.flatMap((e, i) =>
    (e.sweep?.points ?? [])
      .filter(p => p.latency.n > 0)
      .flatMap(p =>
        (['p50', 'p99'] as const).map(percentile => ({
          entry: e.id,
          point: entryPoint(e, total - i),
          version: versionLabel(e),
          order: total - i,
          evaluated: e.timestampEval,
          offered: p.offered,
          achieved: p.achieved,
          percentile,
          latency: p.latency[percentile] * 1000,
          errors: p.errors,
          sustained: p.sustained ? 'yes' : 'no'
        }))
      )
  )
}

/**
 * One stacked bar per entry for the newest HOP_ENTRIES of `entries` (newest first), its segments
 * the hops, numbered as on the trend of all of them; `scale` converts seconds to the chart's unit.
 */
function hopRows(entries: readonly HistoryEntry[], scale = 1): { order: string[]; rows: object[] } {
  const newest = entries.slice(0, HOP_ENTRIES)
  const all = new Set<string>()
  for (const e of newest) for (const m of e.metrics) all.add(m)
  const hops = hopMetrics([...all])
  const rests = newest.map(e => unaccountedTime(e.best, hops))
  const order = rests.some(r => r !== null) ? [...hops, UNACCOUNTED] : hops
  const rows = newest.flatMap((e, i) => {
    const at = entries.length - i
    const point = entryPoint(e, at)
    return order.flatMap((hop, position) => {
      const v = hop === UNACCOUNTED ? rests[i] : e.best[hop]
      if (v === undefined || v === null || !Number.isFinite(v)) return []
      return [{ point, version: versionLabel(e), order: at, hop, position, value: v * scale }]
    })
  })
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
