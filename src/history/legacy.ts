import * as fs from 'node:fs'
import * as path from 'node:path'
import { z } from 'zod'
import { HistoryError, describeIssues } from './errors'
import { HISTORY_SCHEMA, type HistoryEntry } from './schema'

/** The old pipeline's metrics, in its table order; its `best` figures map one to one. */
export const LEGACY_METRICS = [
  'roundtrip',
  'f:send',
  'f:recv',
  'f->r1:send',
  'r1->r2:send',
  'r2->f:send'
] as const

const LEGACY_CASE_NAMES: Record<string, string> = {
  '1': 'non-blocking',
  '2': 'blocking',
  '3': 'parallel non-blocking',
  '4': 'parallel blocking'
}

/** One line of `history<case>.jsonl`. Strict: a key we do not know would be lost on import. */
const LegacyLineSchema = z
  .object({
    'MB/s': z.number(),
    roundtrip: z.number(),
    'f:send': z.number(),
    'f:recv': z.number(),
    'f->r1:send': z.number(),
    'r1->r2:send': z.number(),
    'r2->f:send': z.number(),
    timestamp_build: z.string().datetime({ offset: true }),
    timestamp_eval: z.number().positive(),
    version_tag: z.string(),
    version_vcs: z.string()
  })
  .strict()
type LegacyLine = z.infer<typeof LegacyLineSchema>

const FILE_NAME = /^history(\d+)\.jsonl$/

/**
 * Epoch seconds as RFC 3339 keeping every fraction digit the source printed, so the value reads
 * back exactly (`1569580160.479616` → `2019-09-27T10:29:20.479616Z`).
 */
export function epochToIso(seconds: number): string {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(String(seconds))
  if (!m) throw new Error(`timestamp_eval ${seconds} is not plain epoch seconds`)
  const date = new Date(Number(m[1]) * 1000)
  if (Number.isNaN(date.getTime()) || date.getUTCFullYear() > 9999) {
    throw new Error(`timestamp_eval ${seconds} is not a date between 1970 and 9999`)
  }
  const whole = date.toISOString().slice(0, 19)
  return m[2] ? `${whole}.${m[2]}Z` : `${whole}Z`
}

/** `v0.0.43-alpine` → `0.0.43`; a tag without a version (`latest-alpine`) stays as it is. */
const versionFromTag = (tag: string): string => /^v?(\d+\.\d+\.\d+)/.exec(tag)?.[1] ?? tag

function toEntry(caseId: string, line: LegacyLine): HistoryEntry {
  const best = Object.fromEntries(LEGACY_METRICS.map(m => [m, line[m]]))
  return {
    schema: HISTORY_SCHEMA,
    id: `legacy/${caseId}/${line.timestamp_eval}`,
    caseId,
    caseName: LEGACY_CASE_NAMES[caseId] ?? `case ${caseId}`,
    origin: 'legacy',
    resultId: null,
    commit: { sha: null, ref: null, event: null, repository: null, message: null, url: null },
    gnes: {
      version: versionFromTag(line.version_tag),
      tag: line.version_tag,
      vcs: line.version_vcs,
      buildDate: line.timestamp_build
    },
    engine: 'legacy',
    runner: null,
    // The old pipeline always ran the standard load, best of three, without a warm-up run.
    load: { docs: 500, batchSize: 10, docBytes: 1000000, runs: 3, requests: 50, warmupRequests: 0 },
    profile: { kind: 'burst' },
    headline: 'roundtrip',
    sweep: null,
    timestampEval: epochToIso(line.timestamp_eval),
    metrics: [...LEGACY_METRICS],
    best,
    dataRateMBps: null,
    legacyMBps: line['MB/s'],
    runs: [],
    samples: null
  }
}

/** Entries of one `history<case>.jsonl`; errors name the file and line. */
function parseLegacyFile(file: string): HistoryEntry[] {
  const m = FILE_NAME.exec(path.basename(file))
  if (!m) throw new HistoryError(file, 'a legacy file is named history<case>.jsonl')
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .map((text, i) => ({ text, where: `${file}:${i + 1}` }))
    .filter(l => l.text.trim() !== '')
    .map(({ text, where }) => {
      let raw: unknown
      try {
        raw = JSON.parse(text)
      } catch (err) {
        throw new HistoryError(where, `not valid JSON (${(err as Error).message})`)
      }
      const parsed = LegacyLineSchema.safeParse(raw)
      if (!parsed.success) throw new HistoryError(where, describeIssues(parsed.error))
      try {
        return toEntry(m[1], parsed.data)
      } catch (err) {
        // e.g. a timestamp_eval beyond the dates JavaScript can hold ("Invalid time value").
        throw new HistoryError(where, `cannot convert: ${(err as Error).message}`)
      }
    })
}

/** Entries of the old pipeline's files: a directory holding `history<case>.jsonl`, or the files. */
export function importLegacy(source: string | string[]): HistoryEntry[] {
  const files =
    typeof source === 'string'
      ? fs
          .readdirSync(source)
          .filter(n => FILE_NAME.test(n))
          .sort()
          .map(n => path.join(source, n))
      : source
  if (files.length === 0) throw new Error(`${source}: no history<case>.jsonl files`)
  return files.flatMap(parseLegacyFile)
}
