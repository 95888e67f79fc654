import { daemonAddress } from '../docker/client'
import { cleanUpRun } from '../docker/cleanup'
import { RUN_IDS } from '../docker/run-ids'
import type { EngineEntry } from '../entry'
import { createSwarmEngine } from './engine'

/**
 * Services on a Swarm manager. Asked for only by name, and never refused here: its prepare()
 * refuses a daemon that is no manager, saying why. Its services, configs and networks carry the
 * same run labels as Docker's containers, so the one sweep of the run ids serves both.
 */
export const swarmEntry: EngineEntry<typeof RUN_IDS.fields> = {
  unavailable: async () => null,
  chosen: () => `engine: swarm (the manager at ${daemonAddress()})`,
  create: (settings, runId, log) =>
    createSwarmEngine({ ...settings, runId, log: m => log.info(m) }),
  saved: RUN_IDS,
  cleanUp: cleanUpRun
}
