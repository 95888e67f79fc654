import type { Healthcheck } from '../../topology/http-schema'

/**
 * When a container's health check runs and what its runs decide, as Docker decides a container's
 * health (moby's daemon/health.go), except that the first check runs at once instead of one
 * interval after the start. Times are seconds since the container started.
 */

/** One run of the check: when it began, its exit code (null: it timed out) and its output. */
export interface CheckRun {
  startSec: number
  exitCode: number | null
  output: string
}

export type Health = 'starting' | 'healthy' | 'unhealthy'

/**
 * When the next check of a container not yet healthy begins, the last one having ended at `endSec`
 * (null: none has run): at once, then `startIntervalSec` after each check that ended within the
 * start period, `intervalSec` after the others.
 */
export function nextCheckSec(h: Healthcheck, endSec: number | null): number {
  if (endSec === null) return 0
  return endSec + (endSec < h.startPeriodSec ? h.startIntervalSec : h.intervalSec)
}

/**
 * The health the runs give, in order: healthy after a check that exits 0; unhealthy after
 * `retries` failures in a row, where a failure that began within the start period before the
 * first success does not count; else still starting.
 */
export function healthOf(h: Healthcheck, runs: readonly CheckRun[]): Health {
  let health: Health = 'starting'
  let streak = 0
  for (const run of runs) {
    if (run.exitCode === 0) {
      health = 'healthy'
      streak = 0
    } else if (health !== 'starting' || run.startSec >= h.startPeriodSec) {
      if (++streak >= h.retries) health = 'unhealthy'
    }
  }
  return health
}
