import type { Load } from '../result/schema'
import type { ClientPlan, ClientStream } from './load-client'
import type { Profile } from './profile'

/**
 * The streams of one non-sweep profile: a short warm-up (`warmupRequests` requests as a burst,
 * measured but not published), then `runs` measured streams. A burst run carries `docs`
 * documents, a paced one `requests` requests.
 */
export function profilePlan(
  profile: Exclude<Profile, { kind: 'sweep' }>,
  load: Load
): { plan: ClientPlan; warmupStreams: number } {
  const rate = profile.kind === 'burst' ? null : profile.rate
  const runDocs = profile.kind === 'burst' ? load.docs : load.requests * load.batchSize
  const warmup = warmupStreams(load)
  const runs = Array.from({ length: load.runs }, () => ({ docs: runDocs, rate }))
  return { plan: planOf(load, [...warmup, ...runs]), warmupStreams: warmup.length }
}

const planOf = (load: Load, streams: ClientStream[]): ClientPlan => ({
  batchSize: load.batchSize,
  docBytes: load.docBytes,
  streams
})

/**
 * The warm-up: `warmupRequests` requests handed over at once (none when that is 0). Its job is to
 * open connections and warm caches, not to measure, so it takes as little time as the topology
 * allows; a blocking case serves it as fast as its routers sleep.
 */
export function warmupStreams(load: Load): ClientStream[] {
  return load.warmupRequests > 0 ? [{ docs: load.warmupRequests * load.batchSize, rate: null }] : []
}

export const warmupPlan = (load: Load): ClientPlan => planOf(load, warmupStreams(load))

/** Fewest requests of one sweep step, so its p99 rests on more than a handful of values. */
export const SWEEP_MIN_REQUESTS = 20

/** One sweep step: `stepSeconds` of requests at `rate`, at least SWEEP_MIN_REQUESTS of them. */
export function sweepStepPlan(rate: number, stepSeconds: number, load: Load): ClientPlan {
  const requests = Math.max(SWEEP_MIN_REQUESTS, Math.ceil(rate * stepSeconds))
  return planOf(load, [{ docs: requests * load.batchSize, rate }])
}

/** How long a plan takes on schedule, seconds: what a deadline must at least allow. */
export function scheduledSeconds(plan: ClientPlan): number {
  return plan.streams.reduce(
    (sum, s) => sum + (s.rate ? Math.ceil(s.docs / plan.batchSize) / s.rate : 0),
    0
  )
}
