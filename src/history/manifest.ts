import { z } from 'zod'
import { HistoryError, describeIssues } from './errors'
import { decodeSegment, encodeSegment } from './layout'

/**
 * The history's index, in its own files and schema, generic over entry content: which entry ids
 * (by file name) each case and month holds, and the git trees as last written by this tool. An
 * append compares one small head per case with the branch to notice entries that vanished (a
 * force-push, a hand edit) without reading any entry; its presence marks a history branch.
 */
export const INDEX_SCHEMA = 'gnes-latency-bench/history-index@1'
export const INDEX_DIR = 'index'

const MONTH = /^\d{4}-\d{2}$/
const oid = z.string().regex(/^[0-9a-f]{40}([0-9a-f]{24})?$/)

/**
 * `index/<case>.json`, the head of a case: a few hundred bytes whatever the history's size. When
 * `tree` differs from the case's directory at the tip, something else changed it.
 */
export const CaseIndexSchema = z
  .object({
    schema: z.literal(INDEX_SCHEMA),
    caseId: z.string().min(1),
    /** The case's directory of entries (`entries/<case>`) at the last write; null when gone. */
    tree: oid.nullable(),
    /** Entries the index lists, and how many of them the branch lacked at the last write. */
    entries: z.number().int().nonnegative(),
    missing: z.number().int().nonnegative()
  })
  .strict()
export type CaseIndex = z.infer<typeof CaseIndexSchema>

/** `index/<case>/<YYYY-MM>.json`: file name in `entries/<case>/<month>/` → entry id. */
export const MonthIndexSchema = z
  .object({
    schema: z.literal(INDEX_SCHEMA),
    caseId: z.string().min(1),
    month: z.string().regex(MONTH),
    /** The month's directory of entries at the last write; null when it is gone. */
    tree: oid.nullable(),
    entries: z.record(z.string())
  })
  .strict()
export type MonthIndex = z.infer<typeof MonthIndexSchema>

export const caseIndexPath = (caseId: string): string =>
  `${INDEX_DIR}/${encodeSegment(caseId)}.json`
export const monthIndexPath = (caseId: string, month: string): string =>
  `${INDEX_DIR}/${encodeSegment(caseId)}/${month}.json`

export const serializeIndex = (index: CaseIndex | MonthIndex): string =>
  `${JSON.stringify(index)}\n`

/** Parses one index file; `file` names it in errors. */
export function parseIndex<T extends z.ZodTypeAny>(
  schema: T,
  file: string,
  text: string
): z.infer<T> {
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (err) {
    throw new HistoryError(file, `not valid JSON (${(err as Error).message})`)
  }
  const parsed = schema.safeParse(raw)
  if (!parsed.success)
    throw new HistoryError(file, `invalid index: ${describeIssues(parsed.error)}`)
  return parsed.data
}

/** Entry ids of a month's file names (`<encoded id>.json`); names this tool never writes are kept as they are. */
export function idsOfFiles(files: string[]): Record<string, string> {
  return Object.fromEntries(
    files.map(f => [f, decodeSegment(f.replace(/\.json$/, '')) ?? f] as [string, string])
  )
}
