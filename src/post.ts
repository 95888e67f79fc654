import * as core from '@actions/core'
import { saveProvisioning } from './action/cache'
import { actionsLog } from './action/log'
import { STATE_ENGINE, STATE_RUN_ID } from './action/state'
import { describeSweep, dockerAvailable, sweep } from './engine/docker'

/**
 * The action's `post:` step: it runs even when the job is cancelled or the main step was killed.
 * It removes every container, network, Swarm service and config labelled with a run id the Docker
 * or Swarm engines saved (after a local-engine run, or a main step that stopped before anything
 * was created, it has nothing to remove and says nothing about Docker), then saves what the job
 * provisioned to the Actions cache.
 */
export async function post(): Promise<void> {
  await cleanUp()
  await saveProvisioning(actionsLog)
}

async function cleanUp(): Promise<void> {
  if (core.getState(STATE_ENGINE) === 'local') {
    actionsLog.info('the local engine stopped its own processes; nothing to clean up')
    return
  }
  // The Docker engine saves its run id before it creates anything; no id, nothing was created.
  // A paired run saves two, comma-separated.
  const runIds = core.getState(STATE_RUN_ID).split(',').filter(Boolean)
  if (!runIds.length) return
  if (!(await dockerAvailable())) {
    actionsLog.warn(`no Docker daemon answers; cannot clean up run ${runIds.join(', ')}`)
    return
  }
  for (const runId of runIds) {
    actionsLog.info(`cleanup of run ${runId}: removed ${describeSweep(await sweep({ runId }))}`)
  }
}
