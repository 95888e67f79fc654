import { sendBurst, sendPaced, type HttpRecord, type HttpTarget } from '../../client/http-load'
import { profilePlan, warmupRequestsOf } from '../../client/plan'
import { headlineMetric, profileLabel, type Profile } from '../../client/profile'
import type { Deployment } from '../../engine/types'
import { httpSamples, measuredHttpStep } from '../../metrics/http'
import { summarizeRun } from '../../metrics/run'
import type { Load, RunResult } from '../../result/schema'
import type { HopSource } from '../../topology/http-schema'
import type { HttpTopology } from '../../topology/schema'
import type { Log } from '../../log'
import { profileOutcome, type ProfileOutcome } from './profile'
import type { SweepStep } from './sweep'

const ms = (s: number | undefined): string =>
  s === undefined ? '-' : `${(s * 1000).toFixed(1)} ms`

/** Where and what the driver sends: the load service's first replica, as this host reaches it. */
export function httpTarget(dep: Deployment, topology: HttpTopology): HttpTarget {
  const { host, port } = dep.frontend
  const { load, hops } = topology
  return {
    url: `http://${host}:${port}${load.path}`,
    method: load.method,
    headers: load.headers,
    body: load.body,
    status: load.status,
    timeoutMs: load.timeoutSec * 1000,
    keep: !hops ? 'none' : 'json' in hops ? 'body' : 'headers'
  }
}

/** One run's figures from its requests; a failed request counts, it adds no sample. */
function httpRun(
  index: number,
  warmup: boolean,
  records: HttpRecord[],
  rate: number | null,
  hops: HopSource | null,
  target: HttpTarget
): RunResult {
  const { metrics, samples } = httpSamples(records, hops, rate !== null)
  const first = records[0]
  const began = first.scheduled ?? first.sent
  const ended = Math.max(...records.map(r => r.done))
  return summarizeRun({
    index,
    warmup,
    startedAt: new Date(began * 1000).toISOString(),
    clientSeconds: rate ? records.length / rate : ended - began,
    rate,
    requests: records.length,
    payloadBytes: records.length * Buffer.byteLength(target.body ?? ''),
    dataRateMBps: null,
    metrics,
    samples
  })
}

/**
 * A burst or paced profile over HTTP, shaped as GNES's: a paced profile is ONE schedule, its
 * warm-up then `runs` blocks of `requests`; a burst hands each run's requests over at once.
 */
export async function runHttpProfile(
  target: HttpTarget,
  hops: HopSource | null,
  profile: Exclude<Profile, { kind: 'sweep' }>,
  load: Load,
  log: Log
): Promise<ProfileOutcome> {
  const { parts } = profilePlan(profile, load)
  const warmup = warmupRequestsOf(profile, load)
  const rate = profile.kind === 'burst' ? null : profile.rate
  log.info(
    `${profileLabel(profile)}: ${warmup ? `${warmup} warm-up requests, then ` : ''}` +
      `${load.runs} runs of ${parts[parts.length - 1].at(-1)!.requests} requests to ${target.method} ${target.url}`
  )
  const headline = headlineMetric(profile)
  const runs: RunResult[] = []
  let metrics: string[] = []
  for (const stream of parts) {
    const total = stream.reduce((n, p) => n + p.requests, 0)
    const records =
      rate === null ? await sendBurst(target, total) : await sendPaced(target, rate, total)
    let first = 0
    for (const part of stream) {
      const run = httpRun(
        runs.length,
        part.warmup,
        records.slice(first, (first += part.requests)),
        rate,
        hops,
        target
      )
      runs.push(run)
      if (!part.warmup) metrics = Object.keys(run.summaries)
      const s = run.summaries[headline]
      const measured = runs.filter(r => !r.warmup).length
      log.info(
        `${part.warmup ? 'warm-up' : `run ${measured}/${load.runs}`}: ${part.requests} requests, ` +
          `${headline} median ${ms(s?.median)}, p90 ${ms(s?.p90)}, max ${ms(s?.max)}`
      )
    }
    // A latency of the requests that happened to succeed would hide the failures.
    const failed = records.filter(r => !r.ok)
    if (failed.length) {
      const first = failed[0]
      throw new Error(
        `${failed.length} of ${records.length} requests to ${target.method} ${target.url} failed; ` +
          `the first: ${first.error ?? `status ${first.status}`}`
      )
    }
  }
  return { ...profileOutcome(profile, metrics, runs, load), dataRateMBps: null, legacyMBps: null }
}

/** A sweep step over HTTP: its lead-in, then its requests, at the step's rate. */
export const httpSweepStep =
  (target: HttpTarget): SweepStep =>
  async (rate, step) => {
    const sizes = step.parts[0].map(p => p.requests)
    const total = sizes.reduce((a, b) => a + b, 0)
    const records = await sendPaced(target, rate, total)
    return measuredHttpStep(rate, records.slice(total - sizes[sizes.length - 1]))
  }
