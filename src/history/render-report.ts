import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import type { Clone } from './clone'
import { HistoryError } from './errors'
import { monthIndexPath, MonthIndexSchema, monthSummaries, parseIndex } from './manifest'
import type { CaseView, Render } from './render-hook'
import type { HistoryEntry } from './schema'
import { readBlobs, writeBlob } from './tree'

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
 * Renders README, charts and pages from the entry summaries of each case's newest months, read
 * from the month indexes a month at a time (one fetch per round for every case still short) until
 * they hold `render.recent` entries; no entry file is read. Returns path → blob id of the files.
 */
export async function renderReport(
  clone: Clone,
  cases: ReportCase[],
  render: Render,
  name: (rel: string) => string,
  locate: Locate
): Promise<Map<string, string>> {
  const reading = cases.map(c => {
    const months = [...new Set([...c.months, ...c.known.keys()])].sort().reverse()
    const view: CaseView = { id: c.caseId, recent: [], total: c.total, months }
    return { c, view, next: 0 }
  })
  for (;;) {
    const wanted: { r: (typeof reading)[number]; month: string; path: string }[] = []
    for (const r of reading) {
      while (r.view.recent.length < render.recent && r.next < r.view.months.length) {
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

  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'gnes-report-'))
  try {
    await render.report(
      scratch,
      reading.map(r => r.view)
    )
    const files = fs
      .readdirSync(scratch, { recursive: true, withFileTypes: true })
      .filter(d => d.isFile())
      .map(d => path.relative(scratch, path.join(d.parentPath, d.name)).split(path.sep).join('/'))
    const out = new Map<string, string>()
    // Queued with the append's other objects, as bytes: written by its one flush.
    for (const f of files)
      out.set(f, await writeBlob(clone.git, fs.readFileSync(path.join(scratch, f))))
    return out
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true })
  }
}
