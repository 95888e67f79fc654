import { z } from 'zod'
import { ENGINE_KINDS } from '../config/engines'
import { isoTime } from '../text/timestamp'
import { profileKey, ProfileSchema, type Profile } from '../profile/definition'
import { slug } from '../text/escape'
import {
  GnesMetaSchema,
  LoadSchema,
  SummarySchema,
  SweepResultSchema,
  TraceTallySchema,
  RunUsageSchema
} from '../result/schema'

/** Version of one stored history entry; migrations upgrade older ones on read. */
export const HISTORY_SCHEMA = 'gnes-latency-bench/history@2'

/**
 * Per-request values: about 1,200 numbers per entry. One check per array instead of one zod parse
 * (and several allocations) per number halves reading a 10,000-entry history; same type, no copy.
 */
export const SampleValuesSchema = z.custom<number[]>(
  v => Array.isArray(v) && v.every(x => typeof x === 'number' && Number.isFinite(x)),
  'expected an array of finite numbers'
)

/** A paired change: exp(mean log ratio of head to base run figures) − 1, with its interval. */
const ChangeSchema = z.object({
  change: z.number(),
  ci: z.tuple([z.number(), z.number()])
})

export const PairedChangeSchema = z.object({
  /** What the base was (its GNES, commit or topology file): only entries of one base compare. */
  base: z.string().min(1).max(300),
  pairs: z.number().int().positive(),
  /** Per metric compared. */
  change: z.record(ChangeSchema),
  /**
   * The pairs left out of the test (1-based) and their verdict-metric ratios, head ÷ base, with the
   * rule that set them aside; absent when every pair was kept.
   */
  setAside: z
    .object({
      pairs: z.array(z.number().int().positive()),
      ratios: z.array(z.number().positive()),
      rule: z.string().max(200)
    })
    .optional()
})
export type PairedChange = z.infer<typeof PairedChangeSchema>

/** One case of one suite run (or one line of the legacy pipeline's files). */
export const HistoryEntrySchema = z.object({
  schema: z.literal(HISTORY_SCHEMA),
  /** Stable id: appending the same entry twice keeps one. */
  id: z.string().min(1),
  /** Becomes chart file names and paths: a slug, as topology ids are. */
  caseId: slug('caseId'),
  caseName: z.string(),
  origin: z.enum(['bench', 'legacy']),
  /** Suite run this entry came from (result id); null for legacy lines. */
  resultId: z.string().nullable(),
  commit: z.object({
    sha: z.string().nullable(),
    ref: z.string().nullable(),
    event: z.string().nullable(),
    repository: z.string().nullable(),
    message: z.string().nullable(),
    url: z.string().nullable()
  }),
  /** Null for a generic (HTTP) case: its version is the commit's. */
  gnes: GnesMetaSchema.nullable(),
  /** The engine it ran on; `legacy` for a line of the legacy pipeline's files. */
  engine: z.enum([...ENGINE_KINDS, 'legacy']),
  /** Swarm nodes of each service's instances, by service name (swarm engine only). */
  nodes: z.record(z.array(z.string())).optional(),
  runner: z.string().nullable(),
  /**
   * Whether the kernel took its suite's hold of every CPU awake (keep-cpus-awake); absent in
   * entries before that.
   */
  cpusAwake: z.boolean().optional(),
  load: LoadSchema,
  /** How the requests were offered; entries of different profiles are never compared. */
  profile: ProfileSchema,
  /** The metric published first and gated on (roundtrip for a burst). */
  headline: z.string(),
  timestampEval: isoTime,
  /** The metric the run's inputs chose to judge it by (`verdict-metric`); absent: the default one. */
  verdictMetric: z.string().min(1).max(100).optional(),
  metrics: z.array(z.string()),
  /** Published figure per metric, seconds (burst: best run mean; paced: the best run's medians). */
  best: z.record(z.number()),
  dataRateMBps: z.number().nullable(),
  legacyMBps: z.number().nullable(),
  runs: z.array(
    z.object({
      warmup: z.boolean(),
      summaries: z.record(SummarySchema),
      /** What the run's traces brought back, with hops from traces only; absent before it was kept. */
      traces: TraceTallySchema.optional(),
      /** Each service's CPU and memory over the run's window; absent where none was read. */
      usage: RunUsageSchema.optional()
    })
  ),
  /** Per-request values of the non-warm-up runs, pooled; null where the source had none (legacy). */
  samples: z.record(SampleValuesSchema).nullable(),
  /** A rate sweep's steps and maximum throughput; null for other profiles. */
  sweep: SweepResultSchema.nullable(),
  /**
   * Recorded by a paired run (`baseline: paired`): this entry against the base measured beside
   * it in the same job, pair by pair. A slow spell of the runner moves both sides alike, so a
   * series of these changes against one fixed base shows steps that separate jobs' noise hides.
   */
  paired: PairedChangeSchema.optional()
})
export type HistoryEntry = z.infer<typeof HistoryEntrySchema>

/** Entries of one case and profile key form a series: what is charted and compared together. */
export const seriesKey = (e: { caseId: string; profile: Profile }): string =>
  seriesKeyOf(e.caseId, profileKey(e.profile))

/** The same key from a case id and a profile's key (`1`, `minimal@5` → `1/minimal@5`). */
export const seriesKeyOf = (caseId: string, profile: string): string => `${caseId}/${profile}`

/** The bytes stored for an entry: compact JSON, one line, so per-request samples stay small. */
export function serializeEntry(entry: HistoryEntry): string {
  return `${JSON.stringify(entry)}\n`
}
