import type { EngineEntry } from '../entry'
import { daemonAddress, dockerAvailable } from './client'
import { cleanUpRun } from './cleanup'
import { createDockerEngine } from './engine'
import { RUN_IDS } from './run-ids'

/** Containers on a daemon that answers; its run ids swept after the run. */
export const dockerEntry: EngineEntry<typeof RUN_IDS.fields> = {
  unavailable: async () =>
    (await dockerAvailable())
      ? null
      : `engine 'docker' was asked for, but no Docker daemon answers at ${daemonAddress()} (set DOCKER_HOST, start dockerd, or use engine: auto or local)`,
  chosen: wanted =>
    `engine: docker (daemon at ${daemonAddress()} answered; engine input '${wanted}')`,
  create: (settings, runId, log) =>
    createDockerEngine({ ...settings, runId, log: m => log.info(m) }),
  saved: RUN_IDS,
  cleanUp: cleanUpRun
}
