import { runLoadClient } from '../../client/load-client'
import { profileLabel, unanswered } from '../../profile/definition'
import { headlineMetric, isPaced, traitsOf, type RunProfile } from '../../profile/traits'
import type { GnesDeployment } from '../../engine/types'
import { splitStream } from '../../metrics/paced'
import { bestOfRuns, bestRunMedians, runFigure, streamRun } from '../../metrics/run-result'
import { everyRunHas } from '../../metrics/usage'
import type { CaseResult, Load, RunResult } from '../../result/schema'
import type { DumpCursor } from './dump'
import { profilePlan, warmupRequestsOf } from './drivers'
import type { Log } from '../../log'
import { fmtMs } from '../../text/duration'
import {
  closeWindows,
  SCHEDULE_LEAD_SECONDS,
  scheduleStart,
  streamOpens,
  withWindows
} from './usage-window'

/** What a profile adds to a case's identity (the topology's part comes from the case). */
export type ProfileOutcome = Pick<
  CaseResult,
  'profile' | 'headline' | 'metrics' | 'runs' | 'best' | 'dataRateMBps' | 'legacyMBps' | 'sweep'
>

/** A latency in a progress line: `12.3 ms`, or `-` where the run has none. */
export const ms = (s: number | undefined): string => (s === undefined ? '-' : `${fmtMs(s, 1)} ms`)

/**
 * Runs one burst or paced profile on a running deployment: one client process sends the warm-up
 * and every measured run as consecutive streams; each stream's envelopes are then read in order.
 * `startAt` (epoch seconds) starts a paced schedule on a given clock; without it, a paced schedule
 * starts SCHEDULE_LEAD_SECONDS from now, time enough for the client process to start.
 */
export async function runProfile(
  dep: GnesDeployment,
  cursor: DumpCursor,
  profile: RunProfile,
  load: Load,
  timeoutSec: number,
  log: Log,
  startAt?: number
): Promise<ProfileOutcome> {
  // A paced schedule starts at a known instant, so that its runs' windows are known too; a
  // burst's streams follow each other inside one client process, whose boundaries this cannot see.
  const rate = isPaced(profile) ? profile.rate : null
  const at = rate === null ? startAt : scheduleStart(startAt, SCHEDULE_LEAD_SECONDS)
  const { plan, parts } = profilePlan(profile, load, at)
  const opens = rate === null ? [] : streamOpens(dep, parts[0], rate, at!)
  const warmup = warmupRequestsOf(profile, load)
  log.info(
    `${profileLabel(profile)}: ${warmup ? `${warmup} warm-up requests, then ` : ''}` +
      `${load.runs} runs of ${traitsOf(profile).runSize === 'docs' ? `${load.docs} documents` : `${load.requests} requests`}`
  )
  const reports = await Promise.race([runLoadClient(dep, plan, timeoutSec), dep.failed])
  const { opened, end } = await closeWindows(dep, opens)
  const headline = headlineMetric(profile)
  const runs: RunResult[] = []
  let metrics: string[] = []
  for (const [i, stream] of reports.entries()) {
    const envelopes = await cursor.next(stream.responses)
    const pieces = splitStream(
      stream,
      envelopes,
      parts[i].map(p => p.requests)
    )
    const first = runs.length
    for (const [k, piece] of pieces.entries()) {
      const { warmup } = parts[i][k]
      const index = runs.length
      const run = streamRun(index, warmup, piece.report, piece.envelopes, load)
      runs.push(run)
      // A burst warm-up shows its roundtrip; a paced one its latency, like the runs.
      const s = run.summaries[headline] ?? run.summaries.roundtrip
      const measured = runs.filter(r => !r.warmup).length
      // A burst publishes its best run's mean: the line says it beside the median.
      const mean = traitsOf(profile).publishes === 'run-mean' ? `mean ${ms(s?.mean)}, ` : ''
      log.info(
        `${warmup ? 'warm-up' : `run ${measured}/${load.runs}`}: ${piece.report.requests} requests, ` +
          `${headline} ${mean}median ${ms(s?.median)}, p90 ${ms(s?.p90)}, max ${ms(s?.max)}`
      )
    }
    // The stream's warm-up comes first; its measured runs take their windows (a paced stream's).
    const own = runs.splice(first)
    const windowed = withWindows(
      own.filter(r => !r.warmup),
      i === 0 ? opened : [],
      end,
      headline
    )
    runs.push(...own.filter(r => r.warmup), ...windowed)
    if (windowed.length) metrics = Object.keys(windowed[windowed.length - 1].summaries)
  }
  const spread = runSpread(profile, runs, headline)
  if (spread) log.warn(`${profileLabel(profile)}: ${spread}`)
  return profileOutcome(profile, metrics, runs, load)
}

/** Runs whose published figures differ by more than this factor make a noisy profile. */
const NOISY_FACTOR = 2

/**
 * A warning when the measured runs' figures (a burst's means, a paced profile's medians) of the
 * headline differ by more than NOISY_FACTOR, else null: the published figure is then one of
 * widely spread runs, and a comparison of it is weak.
 */
export function runSpread(
  profile: RunProfile,
  runs: readonly RunResult[],
  headline: string
): string | null {
  const figures = runs
    .filter(r => !r.warmup)
    .map(r => r.summaries[headline])
    .filter(s => s && s.n > 0)
    .map(s => runFigure(profile, s))
  if (figures.length < 2) return null
  const [lo, hi] = [Math.min(...figures), Math.max(...figures)]
  if (!(lo > 0) || hi / lo <= NOISY_FACTOR) return null
  return (
    `the measured runs' ${headline} ${traitsOf(profile).publishes === 'run-mean' ? 'means' : 'medians'} span ` +
    `${ms(lo)} … ${ms(hi)} (×${(hi / lo).toFixed(1)}): this runner was noisy, so the published ` +
    'figure and any comparison of it are weak; more runs, or paired mode, would tell more'
  )
}

/**
 * A burst or paced profile's published figures from its runs: a burst's best run mean per metric,
 * a paced profile's median of the run medians.
 */
export function profileOutcome(
  profile: RunProfile,
  metrics: string[],
  runs: RunResult[],
  load: Load
): ProfileOutcome {
  const headline = headlineMetric(profile)
  const publishes = traitsOf(profile).publishes
  // A usage metric some run lacks (its counter unread there) is not published.
  const published = everyRunHas(metrics, runs)
  switch (publishes) {
    case 'run-mean':
      return {
        profile,
        headline,
        metrics: published,
        runs,
        ...bestOfRuns(runs, published, load.docs),
        sweep: null
      }
    case 'run-median':
      return {
        profile,
        headline,
        metrics: published,
        runs,
        best: bestRunMedians(runs, published, headline),
        dataRateMBps: null,
        legacyMBps: null,
        sweep: null
      }
    default:
      return unanswered(publishes)
  }
}
