import { z } from 'zod'
import { isoTime } from '../text/timestamp'
import { MEMORY_KINDS } from '../engine/usage'

/** A metric's statistics over one run's requests, seconds. */
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

/** Spans not kept, by reason (traces/collector.ts): counted, never fatal. */
export const DropCountsSchema = z.object({
  malformed: z.number().int().nonnegative(),
  tooLarge: z.number().int().nonnegative(),
  unknownTrace: z.number().int().nonnegative(),
  late: z.number().int().nonnegative(),
  overflow: z.number().int().nonnegative(),
  afterClose: z.number().int().nonnegative()
})

/** What a run's traces brought back (`hops: { otlp }`): metrics/trace-tally.ts. */
export const TraceTallySchema = z.object({
  /** Requests that carried a `traceparent`. */
  traced: z.number().int().nonnegative(),
  /** Traced requests whose trace came back whole: its root and every span's parent. */
  complete: z.number().int().nonnegative(),
  /** Spans joined to the run's requests. */
  spans: z.number().int().nonnegative(),
  /**
   * Spans the receiver dropped while the run's stream was sent and joined; a stream of several
   * runs (a paced profile's warm-up and runs) has them on its last run.
   */
  dropped: DropCountsSchema
})
export type TraceTally = z.infer<typeof TraceTallySchema>

/** One service over a measured window (metrics/usage.ts), or why its counters could not be read. */
export const ServiceUsageSchema = z.union([
  z.object({
    /** CPU time (user + system) in the window, summed over its instances. */
    cpuSeconds: z.number().nonnegative(),
    /** Peak memory at the window's end, summed over its instances; `memory` says which peak. */
    memoryMiB: z.number().nonnegative(),
    memory: z.enum(MEMORY_KINDS),
    instances: z.number().int().positive()
  }),
  z.object({ unreadable: z.string().min(1).max(300) })
])
export type ServiceUsage = z.infer<typeof ServiceUsageSchema>

/** What the services spent in a run's measured window (warm-up excluded), by service name. */
export const RunUsageSchema = z.object({
  /** Requests answered in the window: what CPU time is divided by. */
  requests: z.number().int().positive(),
  /** How long the window lasted. */
  seconds: z.number().nonnegative(),
  services: z.record(ServiceUsageSchema)
})
export type RunUsage = z.infer<typeof RunUsageSchema>

/** One measured (or warm-up) run of a profile, as metrics/run.ts summarizes it. */
export const RunResultSchema = z.object({
  index: z.number().int().nonnegative(),
  /** Offered requests/s of a paced run; null for a burst. */
  rate: z.number().positive().nullable(),
  /** Warm-up runs are measured and kept, never published as a figure. */
  warmup: z.boolean(),
  startedAt: isoTime,
  /** Wall time of the client's stream call, seconds. */
  clientSeconds: z.number().nonnegative(),
  requests: z.number().int().positive(),
  /** Payload bytes carried by the run (GNES: docs × doc-bytes; HTTP: request bodies, maybe none). */
  payloadBytes: z.number().int().nonnegative(),
  /**
   * Payload megabytes (10^6 B) over the frontend's first-request-in to last-response-out span.
   * Null for a paced run, whose span is set by the schedule.
   */
  dataRateMBps: z.number().nonnegative().nullable(),
  summaries: z.record(SummarySchema),
  /** Per-request values in receive order, seconds; the input of later statistics. */
  samples: z.record(z.array(z.number())),
  /**
   * In a paired run, the side that went first in this run's pair (client/interleave.ts,
   * `pairLead`): its block ran first, or its requests led by half a period. Absent outside paired
   * runs and in results written before it was recorded.
   */
  pairLead: z.enum(['base', 'head']).optional(),
  /** With hops from traces only; absent in results written before it was recorded. */
  traces: TraceTallySchema.optional(),
  /**
   * Each service's CPU and memory over the run's window, whose figures are its `cpu:` and `mem:`
   * samples; absent where the window could not be timed and in results written before it was.
   */
  usage: RunUsageSchema.optional()
})
export type RunResult = z.infer<typeof RunResultSchema>
