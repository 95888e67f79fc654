import { z } from 'zod'
import { isoTime } from '../text/timestamp'
import { LoadSchema } from '../client/load'
import { ENGINE_KINDS } from '../config/engines'
import { ProfileSchema } from '../profile/definition'
import { GnesMetaSchema } from '../engine/gnes-meta'
import { RunResultSchema } from '../metrics/schema'
import { slug } from '../text/escape'

/**
 * The result of one suite run: what every later stage (history, render, report) reads.
 * Bump RESULT_SCHEMA when a field changes meaning; history migration keys off it.
 */
export const RESULT_SCHEMA = 'gnes-latency-bench/result@2'

// The shapes the engine, the client and metrics fill in are theirs; the result holds them.
export { LoadSchema, type Load } from '../client/load'
export { GnesMetaSchema } from '../engine/gnes-meta'
export {
  RunUsageSchema,
  SummarySchema,
  TraceTallySchema,
  type RunResult,
  type RunUsage,
  type Summary,
  type TraceTally
} from '../metrics/schema'

const GitMetaSchema = z.object({
  sha: z.string().nullable(),
  ref: z.string().nullable(),
  event: z.string().nullable(),
  repository: z.string().nullable(),
  runId: z.string().nullable(),
  serverUrl: z.string().nullable(),
  message: z.string().nullable()
})
export type GitMeta = z.infer<typeof GitMetaSchema>

const HostMetaSchema = z.object({
  hostname: z.string(),
  os: z.string(),
  arch: z.string(),
  cpus: z.number().int().positive(),
  memoryBytes: z.number().int().positive(),
  node: z.string(),
  /** `RUNNER_NAME`/`RUNNER_OS` on Actions, null elsewhere. */
  runner: z.string().nullable()
})

const ServiceSchema = z.object({
  name: z.string(),
  /** `container` for a generic (HTTP) topology's service, whose `model` is its image. */
  role: z.enum(['frontend', 'router', 'container']),
  model: z.string(),
  replicas: z.number().int().positive(),
  /** The Swarm node of each instance, in replica order (swarm engine only). */
  nodes: z.array(z.string()).optional()
})

const PercentilesSchema = z.object({
  n: z.number().int().nonnegative(),
  p50: z.number(),
  p90: z.number(),
  p99: z.number(),
  max: z.number(),
  mean: z.number()
})

const SweepPointSchema = z.object({
  offered: z.number().positive(),
  achieved: z.number().nonnegative(),
  requests: z.number().int().positive(),
  errors: z.number().int().nonnegative(),
  latency: PercentilesSchema,
  latencySent: PercentilesSchema,
  histogram: z.string(),
  sustained: z.boolean()
})

export const SweepResultSchema = z.object({
  points: z.array(SweepPointSchema),
  /** Achieved requests/s of the highest sustained step; null when none was. */
  maxThroughput: z.number().nullable(),
  /** The p99 bound the steps were held to, seconds, and how it was set (e.g. `5x`). */
  maxP99: z.number().nonnegative(),
  bound: z.string()
})

/** One profile of one case. */
export const CaseResultSchema = z.object({
  id: slug('case id'),
  /** A GNES topology, or any services driven over HTTP (`kind: http` in the topology file). */
  kind: z.enum(['gnes', 'http']).default('gnes'),
  name: z.string(),
  topologyFile: z.string(),
  services: z.array(ServiceSchema),
  profile: ProfileSchema,
  /** The metric published first and gated on in pull requests (roundtrip for a burst). */
  headline: z.string(),
  /** The metric the inputs chose to judge it by (`verdict-metric`); absent: the default one. */
  verdictMetric: z.string().min(1).max(100).optional(),
  /** Metric names in display order. Empty for a sweep, whose figures are in `sweep`. */
  metrics: z.array(z.string()),
  /** Warm-up and measured runs; empty for a sweep. */
  runs: z.array(RunResultSchema),
  /**
   * Published figure per metric over the measured runs, seconds: for a burst the best (lowest)
   * run mean, as the old pipeline published; for a paced profile the best run's medians.
   */
  best: z.record(z.number()),
  /** Best (maximum) run data rate over the measured burst runs; null for other profiles. */
  dataRateMBps: z.number().nonnegative().nullable(),
  /** Old pipeline's `MB/s`: docs / best roundtrip; burst only. Not a data rate; kept for comparability. */
  legacyMBps: z.number().nonnegative().nullable(),
  sweep: SweepResultSchema.nullable()
})
export type CaseResult = z.infer<typeof CaseResultSchema>

export const ResultSchema = z.object({
  schema: z.literal(RESULT_SCHEMA),
  id: z.string().uuid(),
  meta: z.object({
    /** Null when the suite ran no GNES case. */
    gnes: GnesMetaSchema.nullable(),
    engine: z.enum(ENGINE_KINDS),
    load: LoadSchema,
    host: HostMetaSchema,
    /**
     * Whether the kernel took the suite's hold of every CPU awake (keep-cpus-awake); results
     * before it did not.
     */
    cpusAwake: z.boolean().default(false),
    git: GitMetaSchema,
    startedAt: isoTime,
    finishedAt: isoTime
  }),
  cases: z.array(CaseResultSchema).min(1)
})
export type Result = z.infer<typeof ResultSchema>
