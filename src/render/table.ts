import type { Profile } from '../client/profile'
import type { HistoryEntry } from '../history/schema'
import { escapeMarkdown, inlineCode, markdownLink, safeUrl } from '../text/escape'
import { buildTime, commitRef, fmtRate, fmtSeconds, fmtTime, versionLabel } from './format'

interface TableRow {
  built: string
  version: string
  commit: string
  values: string[]
  dataRate: string
  legacy: string
}

/** Rows of one case's table, already Markdown-safe; `entries` newest first. */
function tableRows(
  entries: readonly HistoryEntry[],
  metrics: readonly string[],
  repositoryUrl?: string,
  format: (seconds: number | undefined) => string = fmtSeconds
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
      values: metrics.map(m => format(e.best[m])),
      dataRate: fmtRate(e.dataRateMBps),
      legacy: e.legacyMBps === null ? '–' : String(Math.round(e.legacyMBps))
    }
  })
}

const markdownRows = (head: string[], rows: string[][]): string =>
  [head, head.map((_, i) => (i < 3 ? ':--' : '--:')), ...rows]
    .map(cells => `| ${cells.join(' | ')} |`)
    .join('\n')

const msCell = (s: number | undefined): string => (s === undefined ? '–' : (s * 1000).toFixed(1))

/**
 * A GitHub-flavoured Markdown table. A GNES burst series keeps the legacy tables' seconds with
 * three decimals and adds the real and the legacy rate columns; paced series, and every series of
 * a generic case, are in milliseconds.
 */
export function markdownTable(
  entries: readonly HistoryEntry[],
  metrics: readonly string[],
  repositoryUrl?: string,
  kind: Profile['kind'] = 'burst',
  generic = false
): string {
  const rates = kind === 'burst' && !generic
  const head = [
    'Build',
    'Version',
    'Commit',
    ...metrics.map(m => `${inlineCode(m)} (${rates ? 's' : 'ms'})`),
    ...(rates ? ['Data rate (MB/s)', 'Legacy "MB/s" (docs ÷ roundtrip)'] : [])
  ]
  const rows = tableRows(entries, metrics, repositoryUrl, rates ? fmtSeconds : msCell).map(r => [
    r.built,
    r.version,
    r.commit,
    ...r.values,
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
      max === null || max === undefined ? 'none sustained' : max.toFixed(2),
      msCell(points[0]?.latency.p50),
      msCell(top?.latency.p99),
      String(points.length)
    ]
  })
  return markdownRows(head, rows)
}
