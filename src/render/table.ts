import type { Profile } from '../profile/definition'
import type { HistoryEntry } from '../history/schema'
import { throughputIsLowerBound } from '../metrics/sweep'
import { escapeMarkdown, inlineCode, markdownLink, safeUrl } from '../text/escape'
import { fmtRate } from '../text/rate'
import { fmtTime } from '../text/timestamp'
import {
  buildTime,
  commitRef,
  metricCell,
  metricHeading,
  msCell,
  rateCell,
  versionLabel
} from './format'
import { headlineTail } from './tail'
import { traitsOf } from '../profile/traits'

interface TableRow {
  built: string
  version: string
  commit: string
  values: string[]
  /** The headline's p90 and p99 in the run its published median came from. */
  tail: [string, string]
  dataRate: string
  legacy: string
}

/** Rows of one case's table, already Markdown-safe; `entries` newest first. */
function tableRows(
  entries: readonly HistoryEntry[],
  metrics: readonly string[],
  repositoryUrl?: string
): TableRow[] {
  return entries.map(e => {
    const ref = commitRef(e, repositoryUrl)
    const url = safeUrl(ref?.url ?? null)
    const sha = ref ? inlineCode(ref.sha.slice(0, 7)) : '–'
    return {
      // Our own format of a schema-checked ISO time: digits, -, : and UTC only.
      built: fmtTime(buildTime(e)),
      // The commit column already shows the image's GNES commit for legacy rows.
      version: escapeMarkdown(
        e.gnes && ref?.sha === e.gnes.vcs ? e.gnes.tag || e.gnes.version : versionLabel(e)
      ),
      commit: ref ? markdownLink(sha, url) : sha,
      values: metrics.map(m => metricCell(m, e.best[m])),
      tail: tailCells(headlineTail(e)),
      dataRate: rateCell(e.dataRateMBps),
      legacy: e.legacyMBps === null ? '–' : String(Math.round(e.legacyMBps))
    }
  })
}

const tailCells = (t: ReturnType<typeof headlineTail>): [string, string] =>
  t ? [msCell(t.p90), msCell(t.p99)] : ['–', '–']

const markdownRows = (head: string[], rows: string[][]): string =>
  [head, head.map((_, i) => (i < 3 ? ':--' : '--:')), ...rows]
    .map(cells => `| ${cells.join(' | ')} |`)
    .join('\n')

/**
 * A GitHub-flavoured Markdown table, timings in milliseconds (CPU per request in CPU-ms, peak
 * memory in MiB). A GNES burst series adds the real and
 * the legacy rate columns; a paced one (minimal, paced) the headline's p90 and p99, the tail a
 * median hides.
 */
export function markdownTable(
  entries: readonly HistoryEntry[],
  metrics: readonly string[],
  repositoryUrl?: string,
  kind: Profile['kind'] = 'burst',
  generic = false
): string {
  const rates = traitsOf({ kind }).chart === 'burst' && !generic
  const paced = traitsOf({ kind }).publishes === 'run-median'
  const headline = entries[0]?.headline
  const head = [
    'Build',
    'Version',
    'Commit',
    ...metrics.map(metricHeading),
    ...(paced && headline ? [`${inlineCode(headline)} p90 (ms)`, 'p99 (ms)'] : []),
    ...(rates ? ['Data rate (MB/s)', 'Legacy "MB/s" (docs ÷ roundtrip)'] : [])
  ]
  const rows = tableRows(entries, metrics, repositoryUrl).map(r => [
    r.built,
    r.version,
    r.commit,
    ...r.values,
    ...(paced && headline ? r.tail : []),
    ...(rates ? [r.dataRate, r.legacy] : [])
  ])
  return markdownRows(head, rows)
}

/** A sweep series: maximum throughput, and the latency at its lowest and highest sustained steps. */
export function sweepTable(entries: readonly HistoryEntry[], repositoryUrl?: string): string {
  const head = [
    'Build',
    'Version',
    'Commit',
    'Max throughput (req/s)',
    'p50 at the lowest rate (ms)',
    'p99 at the highest sustained rate (ms)',
    'Steps'
  ]
  const rows = tableRows(entries, [], repositoryUrl).map((r, i) => {
    const sweep = entries[i].sweep
    const points = [...(sweep?.points ?? [])].sort((a, b) => a.offered - b.offered)
    const top = points.filter(p => p.sustained).pop()
    const max = sweep?.maxThroughput
    return [
      r.built,
      r.version,
      r.commit,
      max === null || max === undefined
        ? 'none sustained'
        : `${throughputIsLowerBound(points) ? '≥ ' : ''}${fmtRate(max, 2)}`,
      msCell(points[0]?.latency.p50),
      msCell(top?.latency.p99),
      String(points.length)
    ]
  })
  return markdownRows(head, rows)
}
