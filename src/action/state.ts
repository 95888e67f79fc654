import * as core from '@actions/core'

/** The engine that ran, saved by the main step, so the `post:` step cleans up only after Docker. */
export const STATE_ENGINE = 'engine'

/** The run ids of the Docker-based engines, comma-separated; the `post:` step sweeps what carries them. */
export const STATE_RUN_ID = 'docker-run-id'

/**
 * Saves each run id it is given (an engine's, at prepare, before it creates anything) with those
 * before it: a paired run prepares two engines, and the post step cleans up after both.
 */
export function runIdKeeper(): (runId: string) => void {
  const runIds = new Set<string>()
  return runId => {
    runIds.add(runId)
    core.saveState(STATE_RUN_ID, [...runIds].join(','))
  }
}
