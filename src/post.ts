import * as core from '@actions/core'
import { describeSweep, dockerAvailable, STATE_RUN_ID, sweep } from './engine/docker'

/**
 * The action's `post:` step: it runs even when the job is cancelled or the main step was killed,
 * and removes every container, network and Swarm service and config labelled with the run id the main step saved.
 */
export async function post(): Promise<void> {
  const runId = core.getState(STATE_RUN_ID)
  if (!runId) {
    core.info('no Docker run to clean up')
    return
  }
  if (!(await dockerAvailable())) {
    core.warning(`no Docker daemon answers; cannot clean up run ${runId}`)
    return
  }
  core.info(`cleanup of run ${runId}: removed ${describeSweep(await sweep({ runId }))}`)
}

post().catch((err: unknown) => {
  core.warning(`cleanup failed: ${err instanceof Error ? err.message : String(err)}`)
})
