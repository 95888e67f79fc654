import type { RequestRecord } from '../client/http-load'
import type { DropCounts } from '../traces/collector'
import type { TraceTally } from './schema'

/** What a run's traces brought back, counted from its joined requests and its stream's drops. */

export const NO_DROPS: DropCounts = {
  malformed: 0,
  tooLarge: 0,
  unknownTrace: 0,
  late: 0,
  overflow: 0,
  afterClose: 0
}

const REASONS = Object.keys(NO_DROPS) as (keyof DropCounts)[]

const eachReason = (f: (reason: keyof DropCounts) => number): DropCounts =>
  Object.fromEntries(REASONS.map(k => [k, f(k)])) as unknown as DropCounts

/** The drops counted between two readings of a receiver's running counts. */
export const dropsBetween = (before: DropCounts, after: DropCounts): DropCounts =>
  eachReason(k => after[k] - before[k])

/** One run's tally: its traced requests (joined by metrics/trace-hops.ts) and `dropped`. */
export function runTraceTally(records: readonly RequestRecord[], dropped: DropCounts): TraceTally {
  const traced = records.filter(r => r.traceId !== undefined)
  return {
    traced: traced.length,
    complete: traced.filter(r => r.trace?.complete).length,
    spans: traced.reduce((n, r) => n + (r.trace?.spans ?? 0), 0),
    dropped: { ...dropped }
  }
}

/** Several runs' tallies added up; null when none carries one (hops not from traces). */
export function sumTraceTallies(tallies: readonly (TraceTally | undefined)[]): TraceTally | null {
  const present = tallies.filter((t): t is TraceTally => t !== undefined)
  if (present.length === 0) return null
  const add = (f: (t: TraceTally) => number) => present.reduce((n, t) => n + f(t), 0)
  return {
    traced: add(t => t.traced),
    complete: add(t => t.complete),
    spans: add(t => t.spans),
    dropped: eachReason(k => add(t => t.dropped[k]))
  }
}

/** Whether every traced request's trace came back whole and no span was dropped. */
export const tracesWhole = (t: TraceTally): boolean =>
  t.complete === t.traced && REASONS.every(k => t.dropped[k] === 0)
