import * as core from '@actions/core'
import { keepCleanupRecord, readCleanupRecord, type CleanupRecord } from '../engine/cleanup'
import type { Keepers } from '../engine/entry'

/** The engine that ran, saved by the main step, so the `post:` step asks that engine to clean up. */
export const STATE_ENGINE = 'engine'

/** The provisioning cache's key and paths, and whether the main step restored them as they are. */
export const STATE_CACHE = 'provisioning-cache'

/**
 * Saves each engine's part of the cleanup record in the action's state as the run goes (the
 * Docker-based engines' run ids, the local engine's live process groups), each under its part's
 * name; returns the hooks the engines' settings take to report theirs.
 */
export const keepCleanupState = (): Required<Keepers> =>
  keepCleanupRecord((key, text) => core.saveState(key, text))

/**
 * What the main step saved for the `post:` step; null when it chose no engine. Checked: the state
 * is this action's, but a record that names the wrong process must never be acted on.
 */
export function savedCleanupRecord(): CleanupRecord | null {
  const engine = core.getState(STATE_ENGINE)
  if (!engine) return null
  return readCleanupRecord(engine, key => core.getState(key))
}
