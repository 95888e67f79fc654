import {
  keepAliveAgent,
  sendBurst,
  sendPaced,
  type HttpTarget,
  type RequestRecord
} from '../../client/http-load'
import { profilePlan, warmupRequestsOf } from '../../client/plan'
import { profileLabel } from '../../profile/definition'
import { headlineMetric, type RunProfile } from '../../profile/traits'
import type { Deployment } from '../../engine/types'
import { httpRunInput, keepFor, measuredHttpStep } from '../../metrics/http'
import { summarizeRun } from '../../metrics/run'
import type { Load, RunResult } from '../../result/schema'
import type { HttpTopology } from '../../topology/schema'
import type { Log } from '../../log'
import { profileOutcome, type ProfileOutcome } from './profile'
import type { SweepStep } from './sweep'
import { joinTraces, traceStart, type HopReading } from './trace-join'

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
    keep: keepFor(hops)
  }
}

/** Fails on any failed request: a latency of the requests that happened to succeed hides them. */
function checkAnswered(records: RequestRecord[], target: HttpTarget): void {
  const failed = records.filter(r => r.error !== null)
  if (failed.length === 0) return
  throw new Error(
    `${failed.length} of ${records.length} requests to ${target.method} ${target.url} failed; ` +
      `the first: ${failed[0].error}`
  )
}

/**
 * A burst or paced profile over HTTP, shaped as GNES's: a paced profile is ONE schedule, its
 * warm-up then `runs` blocks of `requests`; a burst hands each run's requests over at once. One
 * keep-alive agent serves the whole profile, so only the warm-up opens connections.
 */
export async function runHttpProfile(
  target: HttpTarget,
  hops: HopReading,
  profile: RunProfile,
  load: Load,
  log: Log,
  startAt?: number
): Promise<ProfileOutcome> {
  const { parts } = profilePlan(profile, load)
  const warmup = warmupRequestsOf(profile, load)
  const rate = 'rate' in profile ? profile.rate : null
  const runRequests = parts[parts.length - 1][parts[parts.length - 1].length - 1].requests
  log.info(
    `${profileLabel(profile)}: ${warmup ? `${warmup} warm-up requests, then ` : ''}` +
      `${load.runs} runs of ${runRequests} requests to ${target.method} ${target.url}`
  )
  const headline = headlineMetric(profile)
  const agent = keepAliveAgent()
  const bodyBytes = Buffer.byteLength(target.body ?? '')
  const runs: RunResult[] = []
  let metrics: string[] = []
  try {
    for (const stream of parts) {
      const total = stream.reduce((n, p) => n + p.requests, 0)
      const trace = traceStart(hops)
      const sent =
        rate === null
          ? await sendBurst(target, total, { agent, trace })
          : await sendPaced(target, rate, total, {
              agent,
              trace,
              ...(startAt === undefined ? {} : { startAtMs: startAt * 1000 })
            })
      checkAnswered(sent, target)
      const records = await joinTraces(sent, hops, log)
      let first = 0
      for (const part of stream) {
        const own = records.slice(first, (first += part.requests))
        const input = httpRunInput(
          { index: runs.length, warmup: part.warmup, rate, records: own, bodyBytes },
          hops.source
        )
        const run = summarizeRun(input)
        runs.push(run)
        if (!part.warmup) metrics = Object.keys(run.summaries)
        const s = run.summaries[headline]
        const measured = runs.filter(r => !r.warmup).length
        log.info(
          `${part.warmup ? 'warm-up' : `run ${measured}/${load.runs}`}: ${part.requests} requests, ` +
            `${headline} median ${ms(s?.median)}, p90 ${ms(s?.p90)}, max ${ms(s?.max)}` +
            `${input.hopsMissing ? `; ${input.hopsMissing} answers without hop figures` : ''}`
        )
      }
    }
  } finally {
    agent.destroy()
  }
  return { ...profileOutcome(profile, metrics, runs, load), dataRateMBps: null, legacyMBps: null }
}

/** A sweep step over HTTP: its lead-in, then its requests, at the step's rate. */
export const httpSweepStep =
  (target: HttpTarget): SweepStep =>
  async (rate, step) => {
    const sizes = step.parts[0].map(p => p.requests)
    const total = sizes.reduce((a, b) => a + b, 0)
    const agent = keepAliveAgent()
    try {
      const records = await sendPaced(target, rate, total, { agent })
      return measuredHttpStep(rate, records.slice(total - sizes[sizes.length - 1]))
    } finally {
      agent.destroy()
    }
  }
