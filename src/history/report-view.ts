import { monthIndexPath } from '../site/layout'
import { HistoryError } from './errors'
import { MonthIndexSchema, monthSummaries, parseIndex } from './manifest'
import type { CaseView } from './render-hook'
import type { HistoryEntry } from './schema'
import { readBlobs, type Clone } from '../store'

/** One case as the report reads it from the index. */
export interface ReportCase {
  caseId: string
  /** Entries of the case, by its index head. */
  total: number
  /** Months the index lists entries in (any order). */
  months: string[]
  /** Summaries of the months this attempt rewrote (they win over the tip's month indexes). */
  known: Map<string, HistoryEntry[]>
}

/** Path (relative to the history directory) → blob id at the tip, fetching trees as needed. */
export type Locate = (paths: string[]) => Promise<Map<string, string>>

/**
 * What the report shows of each case: the entry summaries of its newest months, read from the
 * month indexes a month at a time (one fetch per round for every case still short) until they
 * hold `recent` entries; no entry file is read.
 */
export async function reportViews(
  clone: Clone,
  cases: ReportCase[],
  recent: number,
  name: (rel: string) => string,
  locate: Locate
): Promise<CaseView[]> {
  const reading = cases.map(c => {
    const months = [...new Set([...c.months, ...c.known.keys()])].sort().reverse()
    const view: CaseView = { id: c.caseId, recent: [], total: c.total, months }
    return { c, view, next: 0 }
  })
  for (;;) {
    const wanted: { r: (typeof reading)[number]; month: string; path: string }[] = []
    for (const r of reading) {
      while (r.view.recent.length < recent && r.next < r.view.months.length) {
        const month = r.view.months[r.next++]
        const known = r.c.known.get(month)
        if (known) {
          r.view.recent.push(...known)
          continue
        }
        wanted.push({ r, month, path: monthIndexPath(r.c.caseId, month) })
        break
      }
    }
    if (wanted.length === 0) break
    const oids = await locate(wanted.map(w => w.path))
    const missing = wanted.find(w => !oids.has(w.path))
    if (missing)
      throw new HistoryError(
        name(missing.path),
        'is listed in its case index but absent (delete index/ to have the next append rebuild it)'
      )
    await clone.fetchObjects([...oids.values()])
    const texts = await readBlobs(clone.git, [...oids.values()])
    for (const { r, month, path: rel } of wanted) {
      const file = name(rel)
      const index = parseIndex(MonthIndexSchema, file, texts.get(oids.get(rel)!)!)
      if (index.caseId !== r.c.caseId || index.month !== month) {
        throw new HistoryError(file, `indexes case '${index.caseId}', ${index.month}`)
      }
      r.view.recent.push(...monthSummaries(file, index).values())
    }
  }
  return reading.map(r => r.view)
}

/**
 * What a report rendered from `views` shows, as a key: a retry whose views give the same key
 * applies the site it rendered before (an entry's summary never changes under its id).
 */
export const viewsKey = (views: CaseView[]): string =>
  JSON.stringify(
    views
      .map(v => [v.id, v.total, v.months, v.recent.map(e => e.id).sort()] as const)
      .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
  )
