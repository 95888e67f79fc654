import type { z } from 'zod'
import type { EngineKind } from '../config/engines'
import { dockerEntry } from './docker/entry'
import type { EngineEntry } from './entry'
import { localEntry } from './local/entry'
import { swarmEntry } from './swarm/entry'

/** An entry for every engine `config/engines.ts` names, each keeping its own part's type. */
const everyEngine = <R extends Record<EngineKind, EngineEntry<z.ZodRawShape>>>(entries: R): R =>
  entries

/**
 * Every engine by its name: selection, the cleanup after a run and the action's saved state read
 * it. An engine named in `config/engines.ts` fails to compile here until it has its entry.
 */
export const ENGINES = everyEngine({
  local: localEntry,
  docker: dockerEntry,
  swarm: swarmEntry
})
