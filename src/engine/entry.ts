import type { z } from 'zod'
import type { EngineChoice } from '../config/engines'
import type { Log } from '../log'
import type { EngineSettings } from './settings'
import type { Engine } from './types'

/**
 * What each engine answers for itself (`registry.ts` holds one entry per engine): selection, the
 * cleanup after a run and the action's saved state ask it instead of naming engines.
 */

/** The hooks an engine's settings take to report, as a run goes, what its cleanup will need. */
export type Keepers = Pick<EngineSettings, 'keepRunId'>

/**
 * An engine's part of what a run saves for a later cleanup should it not finish (the action's
 * `post:` step): one text under a name of its own, saved whenever it changes, read back as fields
 * of the cleanup record.
 */
export interface SavedPart<F extends z.ZodRawShape> {
  /** The name it is saved under. */
  readonly key: string
  /** Its fields in the cleanup record, as they are checked when read back. */
  readonly fields: F
  /** Starts saving it, `save` told its text whenever it changes; returns the hooks that report it. */
  keep(save: (text: string) => void): Keepers
  /** The fields its saved text holds, unchecked ('' where nothing was saved). */
  decode(text: string): { [K in keyof F]: unknown }
}

/** A saved part's fields as the cleanup record holds them, checked. */
export type Saved<F extends z.ZodRawShape> = z.infer<z.ZodObject<F>>

/** One engine as selection, cleanup and the action's saved state know it. */
export interface EngineEntry<F extends z.ZodRawShape> {
  /** Null where it can run here, else why not: the error when it was asked for by name. */
  unavailable(): Promise<string | null>
  /** The log line that names it chosen, for the `engine` input `wanted`. */
  chosen(wanted: EngineChoice): string
  /** The engine of one run, whose id labels or marks everything it starts. */
  create(settings: EngineSettings, runId: string, log: Log): Engine
  /** Its part of the cleanup record. */
  readonly saved: SavedPart<F>
  /** Removes what a run left, told by its part of the record; says what it removed. */
  cleanUp(saved: Saved<F>, log: Log): Promise<void>
}
