import { z } from 'zod'
import { ENGINE_KINDS } from '../config/engines'
import type { Log } from '../log'
import type { EngineEntry, Keepers, Saved } from './entry'
import { ENGINES } from './registry'

/**
 * What a run saves, as it goes, for a later step to clean up after it should it not finish (the
 * action's `post:` step), read back, and that cleanup: each engine's part, saved and read by its
 * entry, and the cleanup of the engine that ran.
 */

type Engines = typeof ENGINES

/** The engine that ran, with its part of what the run saved. */
export type CleanupRecord = {
  [K in keyof Engines]: { engine: K } & Saved<Engines[K]['saved']['fields']>
}[keyof Engines]

/** Every part once: Docker and Swarm share theirs (the run ids), saved under one name. */
const PARTS = [...new Set(Object.values(ENGINES).map(e => e.saved))]

/**
 * Starts saving every engine's part, each under its name, as the run goes; returns the hooks the
 * engines' settings take to report theirs.
 */
export function keepCleanupRecord(save: (key: string, text: string) => void): Required<Keepers> {
  const keepers = PARTS.map(part => part.keep(text => save(part.key, text)))
  return { keepRunId: runId => keepers.forEach(k => k.keepRunId?.(runId)) }
}

const RecordSchema = z.object({
  engine: z.enum(ENGINE_KINDS),
  ...(Object.assign({}, ...PARTS.map(p => p.fields)) as z.ZodRawShape)
})

/**
 * The record of a run of `engine`, from the texts saved under each part's name. Every part is
 * checked, not only the engine's: a record that names the wrong process must never be acted on.
 */
export function readCleanupRecord(engine: string, saved: (key: string) => string): CleanupRecord {
  const texts = PARTS.map(part => part.decode(saved(part.key)))
  return RecordSchema.parse(Object.assign({ engine }, ...texts)) as CleanupRecord
}

/** Cleans up after a run the way the engine named in its record does. */
export function cleanUpRun(record: CleanupRecord, log: Log): Promise<void> {
  // The record names its engine, so its fields are that entry's part.
  const entry: EngineEntry<z.ZodRawShape> = ENGINES[record.engine]
  return entry.cleanUp(record, log)
}
