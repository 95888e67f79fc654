import { z } from 'zod'

/**
 * The result of one suite run: what every later stage (history, render, report) reads.
 * Bump RESULT_SCHEMA when a field changes meaning; history migration keys off it.
 */
export const RESULT_SCHEMA = 'gnes-latency-bench/result@1'

const isoTime = z.string().datetime({ offset: true })

export const SummarySchema = z.object({
  n: z.number().int().nonnegative(),
  mean: z.number(),
  median: z.number(),
  p90: z.number(),
  p99: z.number(),
  min: z.number(),
  max: z.number(),
  std: z.number()
})
export type Summary = z.infer<typeof SummarySchema>

export const LoadSchema = z.object({
  docs: z.number().int().positive(),
  batchSize: z.number().int().positive(),
  docBytes: z.number().int().positive(),
  runs: z.number().int().positive(),
  warmupRuns: z.number().int().nonnegative()
})
export type Load = z.infer<typeof LoadSchema>

export const GnesMetaSchema = z.object({
  version: z.string(),
  /** Image tag or package version, as the legacy `version_tag`. */
  tag: z.string(),
  /** GNES git SHA (`GNES_VCS_VERSION` in images); null where the install does not say. */
  vcs: z.string().nullable(),
  /** `GNES_BUILD_DATE` in images; null for a PyPI install. */
  buildDate: isoTime.nullable()
})
export type GnesMeta = z.infer<typeof GnesMetaSchema>

export const GitMetaSchema = z.object({
  sha: z.string().nullable(),
  ref: z.string().nullable(),
  event: z.string().nullable(),
  repository: z.string().nullable(),
  runId: z.string().nullable(),
  serverUrl: z.string().nullable(),
  message: z.string().nullable()
})
export type GitMeta = z.infer<typeof GitMetaSchema>

export const HostMetaSchema = z.object({
  hostname: z.string(),
  os: z.string(),
  arch: z.string(),
  cpus: z.number().int().positive(),
  memoryBytes: z.number().int().positive(),
  node: z.string(),
  /** `RUNNER_NAME`/`RUNNER_OS` on Actions, null elsewhere. */
  runner: z.string().nullable()
})

export const ServiceSchema = z.object({
  name: z.string(),
  role: z.enum(['frontend', 'router']),
  model: z.string(),
  replicas: z.number().int().positive(),
  /** The Swarm node of each instance, in replica order (swarm engine only). */
  nodes: z.array(z.string()).optional()
})

export const RunResultSchema = z.object({
  index: z.number().int().nonnegative(),
  /** Warm-up runs are measured and kept, never published as a figure. */
  warmup: z.boolean(),
  startedAt: isoTime,
  /** Wall time of the client's stream call, seconds. */
  clientSeconds: z.number().nonnegative(),
  requests: z.number().int().positive(),
  /** Document payload bytes carried by the run (docs × doc-bytes). */
  payloadBytes: z.number().int().positive(),
  /** Payload megabytes (10^6 B) over the frontend's first-request-in to last-response-out span. */
  dataRateMBps: z.number().nonnegative(),
  summaries: z.record(SummarySchema),
  /** Per-request values in receive order, seconds; the input of later statistics. */
  samples: z.record(z.array(z.number()))
})
export type RunResult = z.infer<typeof RunResultSchema>

export const CaseResultSchema = z.object({
  id: z.string().min(1),
  name: z.string(),
  topologyFile: z.string(),
  services: z.array(ServiceSchema),
  /** Metric names in display order (roundtrip first, then frontend, hops, service times). */
  metrics: z.array(z.string()),
  runs: z.array(RunResultSchema).min(1),
  /** Best (minimum) run mean per metric over the non-warm-up runs, seconds. */
  best: z.record(z.number()),
  /** Best (maximum) run data rate over the non-warm-up runs. */
  dataRateMBps: z.number().nonnegative(),
  /** Old pipeline's `MB/s`: docs / best roundtrip. Not a data rate; kept for comparability. */
  legacyMBps: z.number().nonnegative()
})
export type CaseResult = z.infer<typeof CaseResultSchema>

export const ResultSchema = z.object({
  schema: z.literal(RESULT_SCHEMA),
  id: z.string().uuid(),
  meta: z.object({
    gnes: GnesMetaSchema,
    engine: z.enum(['local', 'docker', 'swarm']),
    load: LoadSchema,
    host: HostMetaSchema,
    git: GitMetaSchema,
    startedAt: isoTime,
    finishedAt: isoTime
  }),
  cases: z.array(CaseResultSchema).min(1)
})
export type Result = z.infer<typeof ResultSchema>
