import * as core from '@actions/core'
import { z } from 'zod'
import { ENGINE_KINDS } from '../config/engines'
import { ProcessGroupSchema, watchProcessGroups } from '../engine/local/process-groups'
import type { CleanupRecord } from '../engine/types'

/** The engine that ran, saved by the main step, so the `post:` step asks that engine to clean up. */
export const STATE_ENGINE = 'engine'

/** The provisioning cache's key and paths, and whether the main step restored them as they are. */
export const STATE_CACHE = 'provisioning-cache'

/** The run ids of the Docker-based engines, comma-separated; the `post:` step sweeps what carries them. */
export const STATE_RUN_ID = 'docker-run-id'

/** The local engine's live process groups (JSON); the `post:` step stops what is left of them. */
export const STATE_PROCESSES = 'local-processes'

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

/** Saves the local engine's live process groups whenever a service starts or ends. */
export const keepProcessGroups = (): (() => void) =>
  watchProcessGroups(groups => core.saveState(STATE_PROCESSES, JSON.stringify(groups)))

const SavedSchema = z.object({
  engine: z.enum(ENGINE_KINDS),
  runIds: z.array(z.string().min(1)),
  groups: z.array(ProcessGroupSchema)
})

/**
 * What the main step saved for the `post:` step; null when it chose no engine. Checked: the state
 * is this action's, but a record that names the wrong process must never be acted on.
 */
export function savedCleanupRecord(): CleanupRecord | null {
  const engine = core.getState(STATE_ENGINE)
  if (!engine) return null
  const groups = core.getState(STATE_PROCESSES)
  return SavedSchema.parse({
    engine,
    runIds: core.getState(STATE_RUN_ID).split(',').filter(Boolean),
    groups: groups ? JSON.parse(groups) : []
  })
}
