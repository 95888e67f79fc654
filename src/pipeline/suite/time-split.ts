import type { TimeSplit } from '../../judge/sequential'
import type { RunResult } from '../../result/schema'

/** A case's split before it has spent anything. */
export const NO_TIME: TimeSplit = { startSec: 0, warmupSec: 0, measureSec: 0, teardownSec: 0 }

/** `split` with the seconds of `part` added to its parts. */
export const addTime = (split: TimeSplit, part: Partial<TimeSplit>): TimeSplit => ({
  startSec: split.startSec + (part.startSec ?? 0),
  warmupSec: split.warmupSec + (part.warmupSec ?? 0),
  measureSec: split.measureSec + (part.measureSec ?? 0),
  teardownSec: split.teardownSec + (part.teardownSec ?? 0)
})

/**
 * A paced load call's warm-up on schedule, seconds: from `beganMs` (epoch milliseconds) until the
 * first measured request of `runs` was due (a paced run starts at its first request's scheduled
 * time), so the clients' start and the warm-up or lead-in requests at the stream's rate. Null
 * without a measured run.
 */
export function scheduledWarmup(
  beganMs: number,
  runs: readonly Pick<RunResult, 'warmup' | 'startedAt'>[]
): number | null {
  const due = runs.filter(r => !r.warmup).map(r => Date.parse(r.startedAt))
  return due.length ? (Math.min(...due) - beganMs) / 1000 : null
}

/**
 * One load call's wall seconds as warm-up and measuring: `warmupSec` of it, never more than the
 * call took nor less than nothing, and the rest measuring. `warmupSec` null: no schedule says what
 * the warm-up took (a burst), so the whole call counts as measuring.
 */
export function loadTime(
  wallSec: number,
  warmupSec: number | null
): Pick<TimeSplit, 'warmupSec' | 'measureSec'> {
  const warmup = Math.min(wallSec, Math.max(0, warmupSec ?? 0))
  return { warmupSec: warmup, measureSec: wallSec - warmup }
}
