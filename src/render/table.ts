import type { HistoryEntry } from '../history/schema'
import { escapeMarkdown, inlineCode, markdownLink, safeUrl } from '../text/escape'
import { buildTime, commitRef, fmtRate, fmtSeconds, fmtTime, versionLabel } from './format'

export interface TableRow {
  built: string
  version: string
  commit: string
  values: string[]
  dataRate: string
  legacy: string
}

/** Rows of one case's table, already Markdown-safe; `entries` newest first. */
export function tableRows(
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
        ref?.sha === e.gnes.vcs ? e.gnes.tag || e.gnes.version : versionLabel(e)
      ),
      commit: ref ? markdownLink(sha, url) : sha,
      values: metrics.map(m => fmtSeconds(e.best[m])),
      dataRate: fmtRate(e.dataRateMBps),
      legacy: e.legacyMBps === null ? '–' : String(Math.round(e.legacyMBps))
    }
  })
}

/** A GitHub-flavoured Markdown table: seconds with three decimals, real and legacy rate columns. */
export function markdownTable(
  entries: readonly HistoryEntry[],
  metrics: readonly string[],
  repositoryUrl?: string
): string {
  const head = [
    'Build',
    'Version',
    'Commit',
    ...metrics.map(m => `${inlineCode(m)} (s)`),
    'Data rate (MB/s)',
    'Legacy "MB/s" (docs ÷ roundtrip)'
  ]
  const align = head.map((_, i) => (i < 3 ? ':--' : '--:'))
  const rows = tableRows(entries, metrics, repositoryUrl).map(r => [
    r.built,
    r.version,
    r.commit,
    ...r.values,
    r.dataRate,
    r.legacy
  ])
  return [head, align, ...rows].map(cells => `| ${cells.join(' | ')} |`).join('\n')
}
