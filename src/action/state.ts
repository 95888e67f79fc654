import * as core from '@actions/core'

/** The engine that ran, saved by the main step, so the `post:` step cleans up only after Docker. */
export const STATE_ENGINE = 'engine'

/** The provisioning cache's key and paths, and whether the main step restored them as they are. */
export const STATE_CACHE = 'provisioning-cache'

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
