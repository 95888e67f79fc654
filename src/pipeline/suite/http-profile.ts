import type { RequestRecord } from '../../client/http-load'
import { profileLabel } from '../../profile/definition'
import { headlineMetric, isPaced, type RunProfile } from '../../profile/traits'
import { httpRunInput, measuredHttpStep } from '../../metrics/http'
import { summarizeRun } from '../../metrics/run-result'
import type { Load, RunResult } from '../../result/schema'
import type { Log } from '../../log'
import { profilePlan, warmupRequestsOf } from './drivers'
import type { LoadDriver, OpenDriver } from './load-driver'
import { ms, profileOutcome, type ProfileOutcome } from './profile'
import type { SweepStep } from './sweep'
import { NO_DROPS, runTraceTally } from '../../metrics/trace-tally'
import { traceJoiner, traceStart, type HopReading } from './trace-join'
import type { Deployment } from '../../engine/types'
import { closeWindows, scheduleStart, streamOpens, withWindows } from './usage-window'

/** Seconds between planning a paced schedule and its start: no process to start, only a timer. */
const HTTP_LEAD_SECONDS = 0.2

/**
 * Fails on any failed request: a latency of the requests that happened to succeed hides them.
 * A driver that names its errors (gRPC's statuses) has them counted by name.
 */
function checkAnswered(records: RequestRecord[], driver: LoadDriver): void {
  const failed = records.filter(r => r.error !== null)
  if (failed.length === 0) return
  const counts = new Map<string, number>()
  for (const r of driver.errorKind ? failed : []) {
    const kind = driver.errorKind!(r)
    counts.set(kind, (counts.get(kind) ?? 0) + 1)
  }
  const byKind = counts.size ? ` (${[...counts].map(([k, n]) => `${n} ${k}`).join(', ')})` : ''
  throw new Error(
    `${failed.length} of ${records.length} requests to ${driver.what} failed${byKind}; ` +
      `the first: ${failed[0].error}`
  )
}

/**
 * A burst or paced profile of a generic topology (HTTP or gRPC), shaped as GNES's: a paced profile
 * is ONE schedule, its warm-up then `runs` blocks of `requests`; a burst hands each run's requests
 * over at once. One driver serves the whole profile, so only the warm-up opens connections.
 */
export async function runHttpProfile(
  dep: Pick<Deployment, 'usage'>,
  open: OpenDriver,
  hops: HopReading,
  profile: RunProfile,
  load: Load,
  log: Log,
  startAt?: number
): Promise<ProfileOutcome> {
  const { parts } = profilePlan(profile, load)
  const driver = await open()
  const warmup = warmupRequestsOf(profile, load)
  const rate = isPaced(profile) ? profile.rate : null
  const runRequests = parts[parts.length - 1][parts[parts.length - 1].length - 1].requests
  log.info(
    `${profileLabel(profile)}: ${warmup ? `${warmup} warm-up requests, then ` : ''}` +
      `${load.runs} runs of ${runRequests} requests to ${driver.what}`
  )
  const headline = headlineMetric(profile)
  const bodyBytes = driver.requestBytes
  const runs: RunResult[] = []
  let metrics: string[] = []
  const join = traceJoiner(hops, log)
  try {
    for (const stream of parts) {
      const total = stream.reduce((n, p) => n + p.requests, 0)
      // A paced schedule starts at a known instant, so that its runs' windows are known too.
      const at = scheduleStart(startAt, HTTP_LEAD_SECONDS)
      const opens = streamOpens(dep, stream, rate, at)
      // A burst's window opens before its first request leaves.
      if (rate === null) await Promise.all(opens)
      const sent = await driver.send(rate, total, {
        trace: traceStart(hops),
        ...(rate === null ? {} : { startAtMs: at * 1000 })
      })
      checkAnswered(sent, driver)
      const { opened, end } = await closeWindows(dep, opens)
      const { records, dropped } = await join(sent)
      const measured: RunResult[] = []
      let first = 0
      for (const part of stream) {
        const last = part === stream[stream.length - 1]
        const own = records.slice(first, (first += part.requests))
        const input = httpRunInput(
          {
            index: runs.length + measured.length,
            warmup: part.warmup,
            rate,
            records: own,
            bodyBytes
          },
          hops.source
        )
        const traces = dropped && runTraceTally(own, last ? dropped : NO_DROPS)
        const run = { ...summarizeRun(input), ...(traces && { traces }) }
        if (part.warmup) runs.push(run)
        else measured.push(run)
        const s = run.summaries[headline]
        const done = runs.filter(r => !r.warmup).length + measured.length
        log.info(
          `${part.warmup ? 'warm-up' : `run ${done}/${load.runs}`}: ${part.requests} requests, ` +
            `${headline} median ${ms(s?.median)}, p90 ${ms(s?.p90)}, max ${ms(s?.max)}` +
            `${input.hopsMissing ? `; ${input.hopsMissing} answers without hop figures` : ''}`
        )
      }
      const windowed = withWindows(measured, opened, end, headline)
      runs.push(...windowed)
      if (windowed.length) metrics = Object.keys(windowed[windowed.length - 1].summaries)
    }
  } finally {
    driver.close()
  }
  return { ...profileOutcome(profile, metrics, runs, load), dataRateMBps: null, legacyMBps: null }
}

/** A sweep step of a generic topology: its lead-in, then its requests, at the step's rate. */
export const httpSweepStep =
  (open: OpenDriver): SweepStep =>
  async (rate, step) => {
    const sizes = step.parts[0].map(p => p.requests)
    const total = sizes.reduce((a, b) => a + b, 0)
    const driver = await open()
    try {
      const records = await driver.send(rate, total)
      return measuredHttpStep(rate, records.slice(total - sizes[sizes.length - 1]))
    } finally {
      driver.close()
    }
  }
