import { z } from 'zod'
import type { SavedPart } from '../entry'

const fields = { runIds: z.array(z.string().min(1)) }

/**
 * The Docker-based engines' part of the cleanup record: every run id they label their objects
 * with, each saved at prepare, before anything carrying it is created. One part for Docker and
 * Swarm, comma-separated: a paired run prepares two engines, and the cleanup sweeps after both.
 */
export const RUN_IDS: SavedPart<typeof fields> = {
  key: 'docker-run-id',
  fields,
  keep(save) {
    const runIds = new Set<string>()
    return {
      keepRunId: runId => {
        runIds.add(runId)
        save([...runIds].join(','))
      }
    }
  },
  decode: text => ({ runIds: text.split(',').filter(Boolean) })
}
