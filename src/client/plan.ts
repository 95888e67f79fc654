import type { Load } from './load'
import type { ClientPlan, ClientStream } from './load-client'

/** Consecutive requests of one stream that form one run, or its warm-up. */
export interface StreamPart {
  warmup: boolean
  requests: number
}

/** A client plan, and how each of its streams divides into runs. */
export interface ProfilePlan {
  plan: ClientPlan
  /** Per stream, its parts in request order. */
  parts: StreamPart[][]
}

const requestsOf = (docs: number, load: Load): number => Math.ceil(docs / load.batchSize)

/**
 * How long `auto` warms a paced profile up. Measured on this project's machine (docs/load.md): the
 * services' latency at 5 requests/s settles over some 50 requests of 10 MB, and idling after start
 * does not shorten that, so the warm-up is traffic; 10 s of it at the profile's rate.
 */
export const AUTO_WARMUP_SECONDS = 10
const AUTO_WARMUP_MIN_REQUESTS = 5

/**
 * How long `auto` warms up each deployment of a paired run at minimal load, paid every time both
 * sides are started afresh. Each GNES router handles its first 16 or so requests of 10 MB about
 * twice as slowly: case 1's `path` settles after 16 requests of the stream (3.2 s at 5 req/s),
 * case 3's, whose two replicas take turns, after about 32 (docs/regression.md, "Where a pair's
 * spread comes from"). 6 s leaves a case like 3 a slow request or two, which a run's trimmed mean
 * cuts off; 3 s left it 17 of 60, which widened its pairs' spread to 4.4 %.
 */
const PAIRED_WARMUP_SECONDS = 6

/** A paired run's warm-up at a paced rate: what `auto` means there, or the number asked for. */
export const pairedWarmupRequests = (rate: number, load: Load): number =>
  load.warmupRequests !== 'auto'
    ? load.warmupRequests
    : Math.max(AUTO_WARMUP_MIN_REQUESTS, Math.ceil(rate * PAIRED_WARMUP_SECONDS))

/**
 * `requests: auto` in paired mode: a measured run of PAIRED_RUN_SECONDS at the profile's rate, at
 * most PAIRED_MAX_RUN_REQUESTS and at least PAIRED_MIN_RUN_REQUESTS. 60 requests at 5 req/s is
 * the length docs/regression.md measured: a pair's noise is its requests' own, so more requests
 * narrow the interval as 1 / √requests, and a pair's start and warm-up cost about as much as
 * 12 s of them. A slower rate is a blocking router's capacity, whose sleep dominates the latency
 * and whose spread is a fraction of a per cent (case 2: ±0.1 % after six pairs of 60 requests at
 * 0.5 req/s, in 13 minutes): a run of the same seconds, not of the same requests, is what keeps
 * its look from costing minutes the threshold does not need. A run never falls below 10 requests,
 * so its median is a median of something.
 */
const PAIRED_RUN_SECONDS = 12
export const PAIRED_MAX_RUN_REQUESTS = 60
const PAIRED_MIN_RUN_REQUESTS = 10

/** The requests of a paired run at `rate` under `requests: auto`. */
export const pairedRunRequests = (rate: number): number =>
  Math.min(
    PAIRED_MAX_RUN_REQUESTS,
    Math.max(PAIRED_MIN_RUN_REQUESTS, Math.ceil(rate * PAIRED_RUN_SECONDS))
  )

/** What `warmup-requests: auto` means for a burst: a warm-up stream of this many requests. */
export const AUTO_BURST_WARMUP_REQUESTS = 10

/** What `warmup-requests: auto` means for a stream paced at `rate`: AUTO_WARMUP_SECONDS of it. */
export const pacedAutoWarmup = (rate: number): number =>
  Math.max(AUTO_WARMUP_MIN_REQUESTS, Math.ceil(rate * AUTO_WARMUP_SECONDS))

/**
 * A burst profile: an optional warm-up stream (`warmup` requests handed over at once), then `runs`
 * streams of `docs` documents, each a run as the legacy pipeline ran it.
 */
export function burstPlan(load: Load, warmup: number): ProfilePlan {
  const streams: ClientStream[] = [
    ...(warmup > 0 ? [{ docs: warmup * load.batchSize, rate: null }] : []),
    ...Array.from({ length: load.runs }, () => ({ docs: load.docs, rate: null }))
  ]
  return {
    plan: planOf(load, streams),
    parts: streams.map((s, i) => [
      { warmup: warmup > 0 && i === 0, requests: requestsOf(s.docs, load) }
    ])
  }
}

/**
 * A paced profile: ONE stream at `rate`, its first `warmup` requests the warm-up and then `runs`
 * consecutive blocks of `requests` requests. GNES's frontend opens new ZeroMQ sockets for every
 * StreamCall and the first requests of a call wait for the routers to reconnect (about 100 ms,
 * settling over some ten requests): one stream pays that once, inside the warm-up, instead of at
 * the start of every run. `startAt` (epoch seconds) fixes when the schedule starts, so that two
 * topologies can be driven on one clock (paired mode).
 */
export function pacedPlan(rate: number, load: Load, warmup: number, startAt?: number): ProfilePlan {
  const parts: StreamPart[] = [
    ...(warmup > 0 ? [{ warmup: true, requests: warmup }] : []),
    ...Array.from({ length: load.runs }, () => ({ warmup: false, requests: load.requests }))
  ]
  const total = parts.reduce((n, p) => n + p.requests, 0)
  const stream: ClientStream = { docs: total * load.batchSize, rate }
  return {
    plan: planOf(load, [startAt === undefined ? stream : { ...stream, at: startAt }]),
    parts: [parts]
  }
}

const planOf = (load: Load, streams: ClientStream[]): ClientPlan => ({
  batchSize: load.batchSize,
  docBytes: load.docBytes,
  streams
})

/** Fewest requests of one sweep step, so its p99 rests on more than a handful of values. */
export const SWEEP_MIN_REQUESTS = 20

/**
 * The lead-in of a paced stream that follows an earlier warm-up on the same deployment (a sweep
 * step, a paired block), not counted: about one second of requests, at most `warmupRequests`.
 */
export const streamLeadIn = (rate: number, load: Load): number =>
  Math.min(
    load.warmupRequests === 'auto' ? Infinity : load.warmupRequests,
    Math.max(1, Math.ceil(rate))
  )

/**
 * One sweep step: a lead-in (each step is a new StreamCall, whose first requests wait for the
 * routers to reconnect), then `stepSeconds` of requests at `rate`, at least SWEEP_MIN_REQUESTS.
 */
export function sweepStepPlan(rate: number, stepSeconds: number, load: Load): ProfilePlan {
  const lead = streamLeadIn(rate, load)
  const requests = Math.max(SWEEP_MIN_REQUESTS, Math.ceil(rate * stepSeconds))
  const parts = [
    ...(lead > 0 ? [{ warmup: true, requests: lead }] : []),
    { warmup: false, requests }
  ]
  return {
    plan: planOf(load, [{ docs: (lead + requests) * load.batchSize, rate }]),
    parts: [parts]
  }
}

/** How long a plan takes on schedule, seconds: what a deadline must at least allow. */
export function scheduledSeconds(plan: ClientPlan): number {
  return plan.streams.reduce(
    (sum, s) => sum + (s.rate ? Math.ceil(s.docs / plan.batchSize) / s.rate : 0),
    0
  )
}
