import { saveProvisioning } from './action/cache'
import { actionsLog } from './action/log'
import { savedCleanupRecord } from './action/state'
import { cleanUpRun } from './engine/cleanup'

/**
 * The action's `post:` step: it runs even when the job is cancelled or the main step was killed.
 * The engine that ran cleans up after its run (what the main step saved as it went: the Docker
 * and Swarm engines' run ids, whose containers, networks, services and configs are removed; the
 * local engine's process groups, whose processes still running are stopped), then what the job
 * provisioned is saved to the Actions cache.
 */
export async function post(): Promise<void> {
  try {
    const record = savedCleanupRecord()
    if (record) await cleanUpRun(record, actionsLog)
  } catch (err) {
    actionsLog.warn(`cleanup failed: ${err instanceof Error ? err.message : String(err)}`)
  }
  await saveProvisioning(actionsLog)
}
