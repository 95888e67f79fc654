import { z } from 'zod'
import { HistoryError, describeIssues } from './errors'
import { roundMicros } from '../result/resolution'
import { decodeSegment } from '../site/layout'
import { upgradeEntry } from './migrate'
import { MONTH_RANGE } from '../site/month-ranges'
import type { HistoryEntry } from './schema'

/**
 * The history's index, in its own files and schema: which entry ids (by file name) each case and
 * month holds, the git trees as last written by this tool, and each entry's summary (the entry
 * without its per-request samples and per-run summaries, about 1 kB instead of 16). An append
 * compares one small head per case with the branch to notice entries that vanished (a force-push,
 * a hand edit) without reading any entry, and renders the report from the summaries of each case's
 * newest months; its presence marks a history branch.
 */
export const INDEX_SCHEMA = 'gnes-latency-bench/history-index@3'
/**
 * Indexes of earlier versions: without summaries (@1), and of the layout without a decade level
 * (@2). A branch holding one is read in full once, moved to the current layout and indexed afresh.
 */
export const EARLIER_INDEX_SCHEMAS: readonly string[] = [
  'gnes-latency-bench/history-index@1',
  'gnes-latency-bench/history-index@2'
]

const MONTH = /^\d{4}-\d{2}$/
const oid = z.string().regex(/^[0-9a-f]{40}([0-9a-f]{24})?$/)

/** `2010-01..2016-11` or `2017-02`: consecutive months as one item (see month-ranges). */
const monthRange = z
  .string()
  .regex(MONTH_RANGE)
  .refine(r => r.slice(0, 7) <= r.slice(-7), 'a month range must not end before it starts')

/**
 * `index/<case>.json`, the head of a case: a few hundred bytes, and about 20 per gap in the
 * case's months. When `tree` differs from the case's directory at the tip, something else changed it.
 */
export const CaseIndexSchema = z
  .object({
    schema: z.literal(INDEX_SCHEMA),
    caseId: z.string().min(1),
    /** The case's directory of entries (`entries/<case>`) at the last write; null when gone. */
    tree: oid.nullable(),
    /** Entries the index lists, and how many of them the branch lacked at the last write. */
    entries: z.number().int().nonnegative(),
    missing: z.number().int().nonnegative(),
    /**
     * Months the index lists entries in, as ranges of consecutive months, oldest first: a case
     * benchmarked every month lists one range. Heads written before ranges list single months,
     * which are ranges of one month.
     */
    months: z.array(monthRange)
  })
  .strict()
export type CaseIndex = z.infer<typeof CaseIndexSchema>

/**
 * `index/<case>/<DDD0>s/<YYYY>/<MM>.json`: file name in the month's directory of entries → entry id, and → the
 * entry's summary (validated and upgraded as entries are, by `monthSummaries`).
 */
export const MonthIndexSchema = z
  .object({
    schema: z.literal(INDEX_SCHEMA),
    caseId: z.string().min(1),
    month: z.string().regex(MONTH),
    /** The month's directory of entries at the last write; null when it is gone. */
    tree: oid.nullable(),
    entries: z.record(z.string()),
    summaries: z.record(z.unknown())
  })
  .strict()
export type MonthIndex = z.infer<typeof MonthIndexSchema>

const roundOrNull = (v: number | null): number | null => (v === null ? null : roundMicros(v))

/**
 * What the report and the dashboard data are rendered from: no samples, no per-run summaries, and
 * the published figures at microsecond resolution, as the dashboard data shows them (17-digit
 * floats compress poorly, and an append that renders the report fetches about 200 summaries).
 */
export const summaryOf = (entry: HistoryEntry): HistoryEntry => ({
  ...entry,
  best: Object.fromEntries(Object.entries(entry.best).map(([m, v]) => [m, roundMicros(v)])),
  dataRateMBps: roundOrNull(entry.dataRateMBps),
  legacyMBps: roundOrNull(entry.legacyMBps),
  samples: null,
  runs: []
})

/**
 * A month index's summaries by file name, each validated (and upgraded) as a stored entry is, and
 * checked to be the entry the index lists under that name; `file` names the index in errors.
 */
export function monthSummaries(file: string, index: MonthIndex): Map<string, HistoryEntry> {
  const out = new Map<string, HistoryEntry>()
  for (const [name, raw] of Object.entries(index.summaries)) {
    let entry: HistoryEntry
    try {
      entry = upgradeEntry(raw)
    } catch (err) {
      throw new HistoryError(file, `summary of ${name}: ${(err as Error).message}`)
    }
    if (index.entries[name] !== entry.id || entry.caseId !== index.caseId) {
      throw new HistoryError(
        file,
        `summary of ${name} is entry '${entry.id}', which the index does not list there`
      )
    }
    out.set(name, entry)
  }
  return out
}

export const serializeIndex = (index: CaseIndex | MonthIndex): string =>
  `${JSON.stringify(index)}\n`

/** The schema an index file names, read without validating the rest; null when it names none. */
export function indexSchemaOf(text: string): string | null {
  try {
    const schema = (JSON.parse(text) as { schema?: unknown }).schema
    return typeof schema === 'string' ? schema : null
  } catch {
    return null
  }
}

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
