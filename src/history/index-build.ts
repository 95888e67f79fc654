import { caseIndexPath, monthIndexPath } from '../site/layout'
import {
  idsOfFiles,
  INDEX_SCHEMA,
  serializeIndex,
  type CaseIndex,
  type MonthIndex
} from './manifest'
import { expandRanges, toRanges } from '../site/month-ranges'
import type { HistoryEntry } from './schema'

/**
 * The index of one case after a write, for both writers: the full write indexes every month from
 * scratch, an incremental append the months it looked into on top of the case's head. Pure.
 */

/** One month of a case as the write leaves it. */
export interface MonthInput {
  month: string
  /** The month's directory of entries as committed (null when it is gone). */
  tree: string | null
  /** File names in that directory. */
  files: Iterable<string>
  /** Files this write adds to it. */
  added: number
  /** The month's index before the write: what it lists stays listed, a file gone is missing. */
  expected: MonthIndex | null
  /** File name → the entry's summary. */
  summaries: Map<string, HistoryEntry>
}

/** A case's index files (path → bytes), its head, and the ids it lists that the branch lacks. */
export interface CaseIndexes {
  files: Map<string, Buffer>
  head: CaseIndex
  missing: string[]
}

/**
 * Indexes `months` of a case whose directory of entries is `tree`. With `base` (the head before
 * the write, when nothing changed behind it) the head counts on from it; without, it counts the
 * months given, which are then all of the case's.
 */
export function indexCase(
  caseId: string,
  tree: string | null,
  base: CaseIndex | null,
  months: MonthInput[]
): CaseIndexes {
  const files = new Map<string, Buffer>()
  const missing: string[] = []
  const head: CaseIndex = {
    schema: INDEX_SCHEMA,
    caseId,
    tree,
    entries: base?.entries ?? 0,
    missing: base?.missing ?? 0,
    months: base?.months ?? []
  }
  for (const m of months) {
    const names = new Set(m.files)
    const entries = { ...(m.expected?.entries ?? {}), ...idsOfFiles([...names]) }
    const gone = Object.keys(entries).filter(f => !names.has(f))
    missing.push(...gone.map(f => entries[f]))
    const index: MonthIndex = {
      schema: INDEX_SCHEMA,
      caseId,
      month: m.month,
      tree: m.tree,
      entries,
      summaries: Object.fromEntries(Object.keys(entries).map(f => [f, m.summaries.get(f)]))
    }
    files.set(monthIndexPath(caseId, m.month), Buffer.from(serializeIndex(index)))
    head.entries += base ? m.added : Object.keys(entries).length
    head.missing += base ? 0 : gone.length
    if (Object.keys(entries).length > 0)
      head.months = toRanges([...expandRanges(head.months), m.month])
  }
  files.set(caseIndexPath(caseId), Buffer.from(serializeIndex(head)))
  return { files, head, missing }
}
