import type { HistoryEntry } from '../history/schema'
import type { Load } from '../result/schema'
import { fmtMs } from '../text/duration'
import { fmtRate } from '../text/rate'
import { mibValue } from '../text/memory'
import { inlineCode } from '../text/escape'
import { isCpuMetric, isMemMetric } from '../metrics/usage'

/** The warm-up a run made, in words: `auto` sizes it per profile (src/client/plan.ts). */
export const fmtWarmup = (load: Pick<Load, 'warmupRequests'>): string =>
  load.warmupRequests === 'auto'
    ? 'a warm-up of 10 s of requests (10 requests before a burst)'
    : `${load.warmupRequests} warm-up requests`

/** A table's cell of a figure, formatted by `fmt`; '–' where the value is missing. */
const cell = (v: number | null | undefined, fmt: (v: number) => string): string =>
  v === null || v === undefined || !Number.isFinite(v) ? '–' : fmt(v)

/** Seconds in milliseconds, the one unit of every table (`fmtMs`'s decimals). */
export const msCell = (v: number | null | undefined): string => cell(v, s => fmtMs(s))

/** A metric's figure in a table: a peak memory (`mem:`) in MiB, anything else a time in ms. */
export const metricCell = (metric: string, v: number | null | undefined): string =>
  isMemMetric(metric) ? cell(v, mibValue) : msCell(v)

/**
 * How tables and charts show a metric's figures: its unit in a table's heading, its axis title, the
 * factor from the stored figure (seconds, a `mem:` figure MiB) and a fixed number of decimals
 * (none: a time's, two below 10 ms and one above). CPU per request is CPU time, not latency.
 */
export interface MetricUnit {
  unit: string
  axis: string
  scale: number
  decimals?: number
}

export function metricUnit(metric: string): MetricUnit {
  if (isMemMetric(metric)) return { unit: 'MiB', axis: 'peak MiB', scale: 1, decimals: 1 }
  if (isCpuMetric(metric)) return { unit: 'CPU-ms', axis: 'CPU-ms per request', scale: 1000 }
  return { unit: 'ms', axis: 'ms', scale: 1000 }
}

/** A metric's column heading: its name as code and its unit. */
export const metricHeading = (metric: string): string =>
  `${inlineCode(metric)} (${metricUnit(metric).unit})`

/** A data rate in MB/s to one decimal. */
export const rateCell = (v: number | null | undefined): string => cell(v, r => fmtRate(r, 1))

/** Build time orders versions; a PyPI install (or a generic case) has none: evaluation time stands in. */
export const buildTime = (e: HistoryEntry): string => e.gnes?.buildDate ?? e.timestampEval

const time = (iso: string): number => Date.parse(iso)

/** Newest first by build time, then by evaluation time; ties keep a stable order by id. */
export function newestFirst(entries: readonly HistoryEntry[]): HistoryEntry[] {
  return [...entries].sort(
    (a, b) =>
      time(buildTime(b)) - time(buildTime(a)) ||
      time(b.timestampEval) - time(a.timestampEval) ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  )
}

/**
 * What the x axis shows: the GNES version, with its commit where known (images carry one); for a
 * generic case, whose version is the benchmarked repository's, its commit (or ref).
 */
export function versionLabel(e: HistoryEntry): string {
  if (!e.gnes) return e.commit.sha?.slice(0, 7) ?? e.commit.ref ?? e.timestampEval
  const v = e.gnes.tag || e.gnes.version
  return e.gnes.vcs ? `${v} ${e.gnes.vcs.slice(0, 7)}` : v
}

/** The GNES release an entry ran (its tag, else its version); null for a generic case. */
export const gnesRelease = (e: HistoryEntry): string | null =>
  e.gnes ? e.gnes.tag || e.gnes.version : null

/**
 * An entry's place on a trend's x axis: its number in recording order (1 = oldest shown) and its
 * commit (else the day it was evaluated). Unique per entry, so entries of one version or commit
 * never share a column.
 */
export function entryPoint(e: HistoryEntry, order: number): string {
  const sha = e.commit.sha ?? e.gnes?.vcs ?? null
  return `${order} · ${sha ? sha.slice(0, 7) : e.timestampEval.slice(0, 10)}`
}

interface CommitRef {
  sha: string
  url: string | null
}

const GNES_REPO = 'https://github.com/gnes-ai/gnes'

/**
 * The commit a row was measured at: the benchmarked repository's commit where recorded, else the
 * GNES commit of the image (legacy lines), which lives in the GNES repository.
 */
export function commitRef(e: HistoryEntry, repositoryUrl?: string): CommitRef | null {
  const sha = e.commit.sha
  if (sha) {
    if (e.commit.url) return { sha, url: e.commit.url }
    const base = e.commit.repository ? `https://github.com/${e.commit.repository}` : repositoryUrl
    return { sha, url: base ? `${base.replace(/\/+$/, '')}/commit/${sha}` : null }
  }
  return e.gnes?.vcs ? { sha: e.gnes.vcs, url: `${GNES_REPO}/commit/${e.gnes.vcs}` } : null
}

/** Case ids in natural order (2 before 10), so the README keeps the case numbering. */
export const compareCaseIds = (a: string, b: string): number =>
  a.localeCompare(b, 'en', { numeric: true })
