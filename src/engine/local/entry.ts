import type { EngineEntry } from '../entry'
import { cleanUpRun } from './cleanup'
import { LocalEngine } from './engine'
import { PROCESS_GROUPS } from './process-groups'

/**
 * Processes on loopback: never refused, no daemon asked. A GNES source tree is installed into a
 * venv (Docker and Swarm build it into the image). What its services leave is found by their
 * recorded process groups.
 */
export const localEntry: EngineEntry<typeof PROCESS_GROUPS.fields> = {
  unavailable: async () => null,
  chosen: () => 'engine: local processes on loopback (engine input local)',
  create(settings, runId, log) {
    const { gnesSource: source } = settings
    if (source !== null) log.info(`engine: gnes-source ${source} is installed into a venv`)
    const gnes = source !== null ? { source } : { version: settings.gnesVersion }
    return new LocalEngine(gnes, runId, m => log.info(m))
  },
  saved: PROCESS_GROUPS,
  cleanUp: cleanUpRun
}
