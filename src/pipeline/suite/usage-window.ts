import type { StreamPart } from '../../client/plan'
import type { Deployment } from '../../engine/types'
import type { UsageSnapshot } from '../../engine/usage'
import { withUsage, windowUsage } from '../../metrics/usage'
import type { RunResult } from '../../result/schema'

/**
 * The services' counters at the ends of each measured run (metrics/usage.ts). A paced stream's
 * runs follow one schedule, so each boundary is an instant known in advance: a quarter period
 * before the run's first request. The request before it was sent three quarters of a period
 * earlier and has been answered (a paired run holds the latency under half a period); in a paired
 * run by requests, the other side's, sent a quarter period earlier, is mostly answered too, where
 * at half a period the reading would fall on its send. The last run ends when the stream has
 * returned, every request answered. The warm-up is before the first boundary: never in a window.
 */

/** Counters read at an instant (epoch ms). */
export interface Reading {
  at: number
  snapshot: UsageSnapshot
}

/** How far, in periods, a run's boundary comes before its first request. */
const BOUNDARY_LEAD = 0.25

/** How long before its schedule starts a paced stream is planned, so its boundaries are known. */
export const SCHEDULE_LEAD_SECONDS = 2

/**
 * Reads the deployment's counters now, dated when the read starts: a read can take a while on a
 * loaded daemon, and the end of a window is read only once every opening read has finished
 * (`closeWindows`), so a window never comes out negative.
 */
export const readNow = async (dep: Pick<Deployment, 'usage'>): Promise<Reading> => {
  const at = Date.now()
  const snapshot = await dep.usage()
  return { at, snapshot }
}

/** The opening readings of a stream's runs, and then the reading that closes its last run. */
export async function closeWindows(
  dep: Pick<Deployment, 'usage'>,
  opens: Promise<Reading>[]
): Promise<{ opened: Reading[]; end: Reading }> {
  const opened = await Promise.all(opens)
  return { opened, end: await readNow(dep) }
}

/**
 * The instants (epoch ms) that open each measured run of a paced stream starting at `startAt`
 * (epoch seconds) at `rate` requests/s: a quarter period before its first request.
 */
export function runBoundaries(
  parts: readonly StreamPart[],
  rate: number,
  startAt: number
): number[] {
  const out: number[] = []
  let sent = 0
  for (const part of parts) {
    if (!part.warmup) out.push((startAt + (sent - BOUNDARY_LEAD) / rate) * 1000)
    sent += part.requests
  }
  return out
}

/** Reads the counters at each instant, as close as a timer gets; the readers never reject. */
export const readingsAt = (
  dep: Pick<Deployment, 'usage'>,
  instants: number[]
): Promise<Reading>[] =>
  instants.map(at =>
    new Promise<void>(resolve => setTimeout(resolve, Math.max(0, at - Date.now()))).then(() =>
      readNow(dep)
    )
  )

/** The requests a run answered: its headline's samples where it has them. */
const answered = (run: RunResult, headline: string): number =>
  run.summaries[headline]?.n ?? run.requests

/**
 * The measured runs of one stream (in order) with their windows' usage: run k from reading k to
 * reading k + 1, the last to `end`.
 */
export function withWindows(
  runs: RunResult[],
  opens: readonly Reading[],
  end: Reading,
  headline: string
): RunResult[] {
  return runs.map((run, k) => {
    const [a, b] = [opens[k], opens[k + 1] ?? end]
    const requests = answered(run, headline)
    if (!a || requests === 0) return run
    return withUsage(run, windowUsage(a.snapshot, b.snapshot, requests, (b.at - a.at) / 1000))
  })
}

/** A stream's schedule start (epoch seconds): the one asked for, or `lead` seconds from now. */
export const scheduleStart = (startAt: number | undefined, lead: number): number =>
  startAt ?? Date.now() / 1000 + lead

/**
 * The readings that open a stream's measured runs: at its boundaries when paced (`rate`, from
 * `startAt`), else (a burst stream, one run) now, before it is sent; none for a warm-up alone.
 */
export function streamOpens(
  dep: Pick<Deployment, 'usage'>,
  parts: readonly StreamPart[],
  rate: number | null,
  startAt: number
): Promise<Reading>[] {
  if (!parts.some(p => !p.warmup)) return []
  return rate === null ? [readNow(dep)] : readingsAt(dep, runBoundaries(parts, rate, startAt))
}
