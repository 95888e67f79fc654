import { z } from 'zod'
import { isoTime } from '../text/timestamp'
import { GnesMetaSchema, SummarySchema } from '../result/schema'
import { describeIssues } from './errors'
import { HISTORY_SCHEMA, HistoryEntrySchema, type HistoryEntry } from './schema'

/**
 * `history@0`: the pre-release layout. Flat commit fields, the build date beside `gnes`, no warm-up
 * runs, no data rate, and the old pipeline's figure under `mbps`. Kept so such files still read.
 */
export const HistoryEntryV0Schema = z.object({
  schema: z.literal('gnes-latency-bench/history@0'),
  id: z.string().min(1),
  caseId: z.string().min(1),
  caseName: z.string(),
  origin: z.enum(['bench', 'legacy']),
  resultId: z.string().nullable(),
  sha: z.string().nullable(),
  ref: z.string().nullable(),
  event: z.string().nullable(),
  gnes: z.object({ version: z.string(), tag: z.string(), vcs: z.string().nullable() }),
  buildDate: isoTime.nullable(),
  engine: z.enum(['local', 'docker', 'legacy']),
  runner: z.string().nullable(),
  load: z.object({
    docs: z.number().int().positive(),
    batchSize: z.number().int().positive(),
    docBytes: z.number().int().positive(),
    runs: z.number().int().positive()
  }),
  timestampEval: isoTime,
  best: z.record(z.number()),
  mbps: z.number().nullable(),
  runs: z.array(z.record(SummarySchema)),
  samples: z.record(z.array(z.number())).nullable()
})
type HistoryEntryV0 = z.infer<typeof HistoryEntryV0Schema>

/** `history@1`: before load profiles; every entry was a burst with whole warm-up runs. */
const HistoryEntryV1Schema = z.object({
  schema: z.literal('gnes-latency-bench/history@1'),
  id: z.string().min(1),
  caseId: z.string().min(1),
  caseName: z.string(),
  origin: z.enum(['bench', 'legacy']),
  resultId: z.string().nullable(),
  commit: z.object({
    sha: z.string().nullable(),
    ref: z.string().nullable(),
    event: z.string().nullable(),
    repository: z.string().nullable(),
    message: z.string().nullable(),
    url: z.string().nullable()
  }),
  gnes: GnesMetaSchema,
  engine: z.enum(['local', 'docker', 'legacy']),
  runner: z.string().nullable(),
  load: z.object({
    docs: z.number().int().positive(),
    batchSize: z.number().int().positive(),
    docBytes: z.number().int().positive(),
    runs: z.number().int().positive(),
    warmupRuns: z.number().int().nonnegative()
  }),
  timestampEval: isoTime,
  metrics: z.array(z.string()),
  best: z.record(z.number()),
  dataRateMBps: z.number().nullable(),
  legacyMBps: z.number().nullable(),
  runs: z.array(z.object({ warmup: z.boolean(), summaries: z.record(SummarySchema) })),
  samples: z.record(z.array(z.number())).nullable()
})
type HistoryEntryV1 = z.infer<typeof HistoryEntryV1Schema>

/**
 * @1 → @2: a burst profile. A warm-up run was a whole burst, so its requests are exactly
 * warmupRuns × the burst's requests.
 */
function migrateV1(e: HistoryEntryV1): HistoryEntry {
  const { warmupRuns, ...load } = e.load
  const requests = Math.ceil(load.docs / load.batchSize)
  return {
    ...e,
    schema: HISTORY_SCHEMA,
    load: { ...load, requests, warmupRequests: warmupRuns * requests },
    profile: { kind: 'burst' },
    headline: 'roundtrip',
    sweep: null
  }
}

/** @0 → @1. Pure; every @0 value lands in a @1 field, fields @0 never had get their neutral value. */
function migrateV0(e: HistoryEntryV0): HistoryEntryV1 {
  return {
    schema: 'gnes-latency-bench/history@1',
    id: e.id,
    caseId: e.caseId,
    caseName: e.caseName,
    origin: e.origin,
    resultId: e.resultId,
    commit: { sha: e.sha, ref: e.ref, event: e.event, repository: null, message: null, url: null },
    gnes: { ...e.gnes, buildDate: e.buildDate },
    engine: e.engine,
    runner: e.runner,
    load: { ...e.load, warmupRuns: 0 },
    timestampEval: e.timestampEval,
    metrics: Object.keys(e.best),
    best: e.best,
    dataRateMBps: null,
    legacyMBps: e.mbps,
    runs: e.runs.map(summaries => ({ warmup: false, summaries })),
    samples: e.samples
  }
}

/** One step per old version, each upgrading to the next; a new version adds one step here. */
const STEPS: Record<string, (raw: unknown) => unknown> = {
  'gnes-latency-bench/history@0': raw => migrateV0(HistoryEntryV0Schema.parse(raw)),
  'gnes-latency-bench/history@1': raw => migrateV1(HistoryEntryV1Schema.parse(raw))
}

const SchemaTag = z.object({ schema: z.string() })
const versionOf = (tag: string): number => Number(/\/history@(\d+)$/.exec(tag)?.[1] ?? NaN)

/**
 * Validates one stored entry of any known version and returns it in the current one.
 * Throws a plain Error describing the problem; the reader adds the file name.
 */
export function upgradeEntry(raw: unknown): HistoryEntry {
  const tag = SchemaTag.safeParse(raw)
  if (!tag.success) throw new Error(`not a history entry: ${describeIssues(tag.error)}`)
  const from = tag.data.schema
  if (from !== HISTORY_SCHEMA && !(from in STEPS)) {
    const newer = versionOf(from) > versionOf(HISTORY_SCHEMA)
    throw new Error(
      newer
        ? `written by a newer gnes-latency-bench (${from}); this one reads up to ${HISTORY_SCHEMA}`
        : `unknown schema '${from}'`
    )
  }
  let current: unknown = raw
  while ((current as { schema: string }).schema !== HISTORY_SCHEMA) {
    const schema = (current as { schema: string }).schema
    try {
      current = STEPS[schema](current)
    } catch (err) {
      throw err instanceof z.ZodError
        ? new Error(`invalid ${schema} entry: ${describeIssues(err)}`)
        : err
    }
  }
  const parsed = HistoryEntrySchema.safeParse(current)
  if (!parsed.success) throw new Error(`invalid entry: ${describeIssues(parsed.error)}`)
  return parsed.data
}
