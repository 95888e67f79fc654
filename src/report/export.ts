import { profileKey } from '../profile/definition'
import type { HistoryEntry } from '../history/schema'
import { percentileDistribution } from '../metrics/histogram'
import { runFigure } from '../metrics/run-result'
import { measuredSamples } from '../result/samples'
import type { CaseResult, Result } from '../result/schema'
import { publishesRuns } from '../profile/traits'
import { isCpuMetric, isMemMetric } from '../metrics/usage'

/**
 * A result and a history in the formats other tools read (docs/reports.md, "Exports"):
 * - Bencher Metric Format (`bencher run --adapter json`): benchmark → measure → value, with the
 *   spread of the measured runs as lower and upper values; latency in nanoseconds, throughput in
 *   requests per second, Bencher's built-in units; a service's CPU per request (`cpu-time`) in
 *   nanoseconds and its peak memory (`memory`) in MiB;
 * - github-action-benchmark's `customSmallerIsBetter` (`tool: customSmallerIsBetter`): one point
 *   per figure, in milliseconds;
 * - CSV of a history: one row per entry and published figure, seconds (a `mem:` figure in MiB);
 * - HdrHistogram's percentile distribution (`.hgrm`) of a metric, per case and profile (per step
 *   of a sweep), in milliseconds.
 */

/** Bencher Metric Format: benchmark name → measure slug → its figure. */
export type Bmf = Record<
  string,
  Record<string, { value: number; lower_value?: number; upper_value?: number }>
>

/** One point of github-action-benchmark's custom JSON. */
export interface BenchmarkActionPoint {
  name: string
  unit: string
  value: number
  range?: string
  extra?: string
}

/** One published figure of a case: its value and the measured runs' spread, seconds. */
interface Figure {
  caseLabel: string
  metric: string
  value: number
  runs: number[]
}

/** The figure of one run as `best` publishes it (`runFigure`), null where the run has none. */
function figureOf(c: CaseResult, run: CaseResult['runs'][number], metric: string): number | null {
  const s = run.summaries[metric]
  if (!s || s.n === 0 || !publishesRuns(c.profile)) return null
  return runFigure(c.profile, s)
}

function figures(result: Result): Figure[] {
  return result.cases.flatMap(c => {
    const caseLabel = `case ${c.id}/${profileKey(c.profile)}`
    return c.metrics
      .filter(m => Number.isFinite(c.best[m]))
      .map(metric => ({
        caseLabel,
        metric,
        value: c.best[metric],
        runs: c.runs
          .filter(r => !r.warmup)
          .map(r => figureOf(c, r, metric))
          .filter((v): v is number => v !== null && Number.isFinite(v))
      }))
  })
}

const NS = 1e9

/**
 * A figure's Bencher measure and its factor from the figure: a time in nanoseconds (`latency`), a
 * service's CPU per request in nanoseconds (`cpu-time`), its peak memory in MiB (`memory`).
 */
const bmfMeasure = (metric: string): { measure: string; scale: number } =>
  isMemMetric(metric)
    ? { measure: 'memory', scale: 1 }
    : { measure: isCpuMetric(metric) ? 'cpu-time' : 'latency', scale: NS }

export function toBmf(result: Result): Bmf {
  const out: Bmf = {}
  for (const f of figures(result)) {
    const { measure, scale } = bmfMeasure(f.metric)
    out[`${f.caseLabel}/${f.metric}`] = {
      [measure]: {
        value: f.value * scale,
        ...(f.runs.length
          ? { lower_value: Math.min(...f.runs) * scale, upper_value: Math.max(...f.runs) * scale }
          : {})
      }
    }
  }
  for (const c of result.cases) {
    if (c.sweep?.maxThroughput == null) continue
    out[`case ${c.id}/${profileKey(c.profile)}/max-throughput`] = {
      throughput: { value: c.sweep.maxThroughput }
    }
  }
  return out
}

const ms = (s: number): number => Math.round(s * 1e6) / 1e3
const mib = (m: number): number => Math.round(m * 1e3) / 1e3

export function toBenchmarkAction(result: Result): BenchmarkActionPoint[] {
  const gnes = result.meta.gnes ? `GNES ${result.meta.gnes.version}, ` : ''
  return figures(result).map(f => {
    // A peak memory is in MiB already; every other figure is seconds, shown in ms.
    const [unit, v] = isMemMetric(f.metric) ? ['MiB', mib] : ['ms', ms]
    return {
      name: `${f.caseLabel} ${f.metric}`,
      unit,
      value: v(f.value),
      ...(f.runs.length > 1
        ? { range: `${v(Math.min(...f.runs))} … ${v(Math.max(...f.runs))}` }
        : {}),
      extra: `${gnes}${result.meta.engine} engine, ${f.runs.length} measured runs`
    }
  })
}

/**
 * A CSV field: quoted when it holds a comma, quote or line break; a field a spreadsheet would take
 * for a formula (`=`, `+`, `-`, `@`, tab, CR at its start) gets a leading `'`, since history text
 * is untrusted. Numbers are written as they are.
 */
function csvField(v: string | number | null): string {
  if (v === null) return ''
  if (typeof v === 'number') return String(v)
  const safe = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe
}

export const CSV_HEADER = [
  'evaluated',
  'case',
  'profile',
  'metric',
  'value_s',
  'gnes_version',
  'commit',
  'ref',
  'engine',
  'entry'
] as const

/** Every published figure of `entries`, oldest first, one row each. */
export function toCsv(entries: readonly HistoryEntry[]): string {
  const rows = [...entries]
    .sort((a, b) => Date.parse(a.timestampEval) - Date.parse(b.timestampEval))
    .flatMap(e =>
      Object.entries(e.best)
        .filter(([, v]) => Number.isFinite(v))
        .map(([metric, value]) => [
          e.timestampEval,
          e.caseId,
          profileKey(e.profile),
          metric,
          value,
          e.gnes?.version ?? null,
          e.commit.sha,
          e.commit.ref,
          e.engine,
          e.id
        ])
    )
  return [CSV_HEADER.join(','), ...rows.map(r => r.map(csvField).join(','))].join('\n') + '\n'
}

/** One `.hgrm` text: its file name (slugs only: case ids and profile keys are slugs) and body. */
export interface Hgrm {
  name: string
  text: string
}

/**
 * `metric`'s distribution (each case's headline when null) of every case and profile as
 * HdrHistogram percentile text: the measured runs' requests together; a sweep's latency per
 * step, from the histogram it stored.
 */
export function toHgrm(result: Result, wanted: string | null): Hgrm[] {
  return result.cases.flatMap(c => {
    const base = `case-${c.id}-${profileKey(c.profile)}`
    const metric = wanted ?? c.headline
    if (c.sweep) {
      if (metric !== 'latency') return []
      return c.sweep.points.map(p => ({
        name: `${base}-${p.offered}rps-latency.hgrm`,
        text: percentileDistribution(p.histogram)
      }))
    }
    const samples = measuredSamples(c, metric)
    return samples.length
      ? [
          {
            name: `${base}-${metric.replace(/[^\w.-]+/g, '_')}.hgrm`,
            text: percentileDistribution(samples)
          }
        ]
      : []
  })
}
