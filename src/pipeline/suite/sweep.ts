import { runLoadClient } from '../../client/load-client'
import { scheduledSeconds, sweepStepPlan } from '../../client/plan'
import type { Profile } from '../../profile/definition'
import { fmtMs } from '../../text/duration'
import { fmtRate } from '../../text/rate'
import type { LatencyBound } from '../../config/latency-bound'
import type { Deployment, GnesDeployment } from '../../engine/types'
import { splitStream } from '../../metrics/paced'
import {
  boundSeconds,
  failedStep,
  isSustained,
  maxSustainedThroughput,
  measuredStep,
  nextSweepRate,
  type SweepPoint
} from '../../metrics/sweep'
import type { Load } from '../../result/schema'
import type { DumpCursor } from './dump'
import type { Log } from '../../log'
import type { ProfileOutcome } from './profile'

export interface SweepSettings {
  /** Explicit rates, or null for the automatic search. */
  rates: number[] | null
  stepSeconds: number
  maxSteps: number
  bound: LatencyBound
  /** How the bound was written (`5x`, `250ms`), for the report. */
  boundText: string
}

/** The automatic search stops once the sustained and failed rates are within 5 %. */
const RESOLUTION = 1.05
/** A step may overrun its schedule this many times (a saturated topology drains slowly). */
const STEP_SLACK = 5
const STEP_MIN_TIMEOUT_S = 30

/** Measures one step: its plan's lead-in, then its requests; throws when the step fails. */
export type SweepStep = (
  rate: number,
  step: ReturnType<typeof sweepStepPlan>,
  timeoutSec: number
) => Promise<Omit<SweepPoint, 'sustained'>>

/** A GNES step: one client stream, read back through the frontend's route dump. */
export const gnesSweepStep =
  (dep: GnesDeployment, cursor: DumpCursor): SweepStep =>
  async (rate, step, timeoutSec) => {
    const [stream] = await runLoadClient(dep, step.plan, timeoutSec)
    // The step's own requests follow its lead-in, which is not counted.
    const { report, envelopes } = splitStream(
      stream,
      await cursor.next(stream.responses),
      step.parts[0].map(p => p.requests)
    ).pop()!
    return measuredStep(rate, report, envelopes)
  }

/**
 * Offers rising rates, one paced stream per step, and measures each step's latency distribution
 * (from the schedule, so a stalled stream cannot hide delay) and achieved throughput. A step that
 * fails or overruns is recorded with every request as an error and ends the sweep, so the sweep
 * must be the last profile on a deployment.
 */
export async function runSweep(
  dep: Pick<Deployment, 'failed'>,
  measure: SweepStep,
  start: number,
  settings: SweepSettings,
  load: Load,
  deadline: number,
  log: Log
): Promise<ProfileOutcome> {
  const points: SweepPoint[] = []
  let maxP99 = Infinity
  const plan = { rates: settings.rates, start, maxSteps: settings.maxSteps, resolution: RESOLUTION }
  for (let rate = nextSweepRate(plan, points); rate !== null; rate = nextSweepRate(plan, points)) {
    const step = sweepStepPlan(rate, settings.stepSeconds, load)
    const sizes = step.parts[0].map(p => p.requests)
    const requests = sizes[sizes.length - 1]
    const budget = Math.floor((deadline - Date.now()) / 1000)
    const timeout = Math.min(
      budget,
      Math.max(STEP_MIN_TIMEOUT_S, STEP_SLACK * scheduledSeconds(step.plan))
    )
    if (timeout <= 0) throw new Error(`the sweep exceeded case-timeout at ${fmtRate(rate)} req/s`)
    // A step that fails is a figure; a service that dies fails the case.
    const measured = await Promise.race([
      measure(rate, step, timeout).catch((err: Error) => err),
      dep.failed
    ])
    if (measured instanceof Error) {
      log.warn(`sweep step at ${fmtRate(rate)} req/s failed, the sweep ends: ${measured.message}`)
      points.push(failedStep(rate, requests))
      break
    }
    if (points.length === 0) maxP99 = boundSeconds(settings.bound, measured)
    const point = { ...measured, sustained: isSustained(measured, maxP99) }
    points.push(point)
    log.info(
      `sweep ${fmtRate(rate)} req/s: achieved ${fmtRate(point.achieved, 2)} req/s, latency p50 ` +
        `${fmtMs(point.latency.p50, 1)} ms, p99 ${fmtMs(point.latency.p99, 1)} ms` +
        `${point.errors ? `, ${point.errors} errors` : ''} → ${point.sustained ? 'sustained' : 'not sustained'}`
    )
  }
  const profile: Profile = {
    kind: 'sweep',
    auto: settings.rates === null,
    rates: points.map(p => p.offered)
  }
  const maxThroughput = maxSustainedThroughput(points)
  log.info(
    `maximum sustainable throughput: ${maxThroughput === null ? 'none (no step sustained)' : `${fmtRate(maxThroughput, 2)} req/s`}` +
      ` (achieved ≥ 95 % of offered, p99 ≤ ${fmtMs(maxP99, 1)} ms)`
  )
  return {
    profile,
    headline: 'max-throughput',
    metrics: [],
    runs: [],
    best: {},
    dataRateMBps: null,
    legacyMBps: null,
    sweep: {
      points,
      maxThroughput,
      maxP99: Number.isFinite(maxP99) ? maxP99 : 0,
      bound: settings.boundText
    }
  }
}
