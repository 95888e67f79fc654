import type { StreamReport } from '../client/load-client'
import { profilePlan } from '../client/plan'
import { headlineMetric, profileLabel, type Profile } from '../client/profile'
import type { Deployment } from '../engine/types'
import type { DumpedEnvelope } from '../metrics/envelope'
import { pacedSamples } from '../metrics/paced'
import { bestOfRuns, dataRateMBps, medianOfRunMedians, summarizeRun } from '../metrics/run'
import { requestSamples } from '../metrics/samples'
import type { CaseResult, Load, RunResult } from '../result/schema'
import type { DumpCursor } from './dump'
import type { Log } from '../log'

/** What a profile adds to a case's identity (the topology's part comes from the case). */
export type ProfileOutcome = Pick<
  CaseResult,
  'profile' | 'headline' | 'metrics' | 'runs' | 'best' | 'dataRateMBps' | 'legacyMBps' | 'sweep'
>

const ms = (s: number | undefined): string =>
  s === undefined ? '-' : `${(s * 1000).toFixed(1)} ms`

function runFrom(
  index: number,
  warmup: boolean,
  report: StreamReport,
  envelopes: DumpedEnvelope[],
  payloadBytes: number
): RunResult {
  const base = {
    index,
    warmup,
    startedAt: new Date(report.startedAt * 1000).toISOString(),
    clientSeconds: report.seconds,
    rate: report.rate,
    requests: report.requests,
    payloadBytes
  }
  if (report.rate === null) {
    const routes = envelopes.map(e => e.routes)
    return summarizeRun({
      ...base,
      ...requestSamples(routes),
      dataRateMBps: dataRateMBps(routes, payloadBytes)
    })
  }
  return summarizeRun({ ...base, ...pacedSamples(report, envelopes), dataRateMBps: null })
}

/**
 * Runs one burst or paced profile on a running deployment: one client process sends the warm-up
 * and every measured run as consecutive streams; each stream's envelopes are then read in order.
 */
export async function runProfile(
  dep: Deployment,
  cursor: DumpCursor,
  profile: Exclude<Profile, { kind: 'sweep' }>,
  load: Load,
  timeoutSec: number,
  log: Log
): Promise<ProfileOutcome> {
  const { plan, warmupStreams } = profilePlan(profile, load)
  log.info(
    `${profileLabel(profile)}: ${warmupStreams ? `a burst of ${load.warmupRequests} warm-up requests, then ` : ''}` +
      `${load.runs} runs of ${profile.kind === 'burst' ? `${load.docs} documents` : `${load.requests} requests`}`
  )
  const reports = await Promise.race([dep.runClient(plan, timeoutSec), dep.failed])
  const headline = headlineMetric(profile)
  const runs: RunResult[] = []
  let metrics: string[] = []
  for (const [i, report] of reports.entries()) {
    const warmup = i < warmupStreams
    const envelopes = await cursor.next(report.responses)
    const docs = plan.streams[i].docs
    const run = runFrom(i, warmup, report, envelopes, docs * load.docBytes)
    if (!warmup) metrics = Object.keys(run.summaries)
    runs.push(run)
    // The warm-up is a burst even before a paced profile: it shows its roundtrip.
    const shown = warmup ? 'roundtrip' : headline
    const s = run.summaries[shown]
    log.info(
      `${warmup ? 'warm-up' : `run ${i - warmupStreams + 1}/${load.runs}`}: ${report.requests} requests in ` +
        `${report.seconds.toFixed(3)} s, ${shown} median ${ms(s?.median)}, p90 ${ms(s?.p90)}, max ${ms(s?.max)}`
    )
  }
  if (profile.kind === 'burst') {
    return {
      profile,
      headline,
      metrics,
      runs,
      ...bestOfRuns(runs, metrics, load.docs),
      sweep: null
    }
  }
  return {
    profile,
    headline,
    metrics,
    runs,
    best: medianOfRunMedians(runs, metrics),
    dataRateMBps: null,
    legacyMBps: null,
    sweep: null
  }
}
