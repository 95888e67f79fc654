import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import type { Clone } from './clone'
import { HistoryError } from './errors'
import { monthIndexPath, MonthIndexSchema, monthSummaries, parseIndex } from './manifest'
import type { CaseView, Render } from './render-hook'
import type { HistoryEntry } from './schema'
import { readBlobs } from './tree'

/** One case as the report reads it from the index. */
export interface ReportCase {
  caseId: string
  /** Entries of the case, by its index head. */
  total: number
  /** Month → its month index's blob id at the tip. */
  indexes: Map<string, string>
  /** Summaries of the months this attempt rewrote (they win over `indexes`). */
  known: Map<string, HistoryEntry[]>
}

/**
 * Renders README, charts and pages from the entry summaries of each case's newest months, read
 * from the month indexes a month at a time (one fetch per round for every case still short) until
 * they hold `render.recent` entries; no entry file is read. Returns path → blob id of the files.
 */
export async function renderReport(
  clone: Clone,
  cases: ReportCase[],
  render: Render,
  name: (rel: string) => string
): Promise<Map<string, string>> {
  const reading = cases.map(c => {
    const months = [...new Set([...c.indexes.keys(), ...c.known.keys()])].sort().reverse()
    const view: CaseView = { id: c.caseId, recent: [], total: c.total, months }
    return { c, view, next: 0 }
  })
  for (;;) {
    const wanted: { r: (typeof reading)[number]; month: string; oid: string }[] = []
    for (const r of reading) {
      while (r.view.recent.length < render.recent && r.next < r.view.months.length) {
        const month = r.view.months[r.next++]
        const known = r.c.known.get(month)
        if (known) {
          r.view.recent.push(...known)
          continue
        }
        wanted.push({ r, month, oid: r.c.indexes.get(month)! })
        break
      }
    }
    if (wanted.length === 0) break
    await clone.fetchObjects(wanted.map(w => w.oid))
    const texts = await readBlobs(
      clone.git,
      wanted.map(w => w.oid)
    )
    for (const { r, month, oid } of wanted) {
      const file = name(monthIndexPath(r.c.caseId, month))
      const index = parseIndex(MonthIndexSchema, file, texts.get(oid)!)
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
    if (files.length === 0) return new Map()
    const paths = `${files.map(f => path.join(scratch, f)).join('\n')}\n`
    const oids = (await clone.git(['hash-object', '-w', '--stdin-paths'], paths)).trim().split('\n')
    return new Map(files.map((f, i) => [f, oids[i]]))
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true })
  }
}
