import type { EngineKind } from '../config/engines'
import { cleanUpRun as cleanUpDaemonRun } from './docker/cleanup'
import { cleanUpRun as cleanUpLocalRun } from './local/cleanup'
import type { CleanUpRun } from './types'

/**
 * Who cleans up after each engine's run; a new engine fails to compile until it answers here.
 * Swarm's services, configs and networks carry the same run labels as Docker's containers, so
 * one sweep serves both.
 */
const CLEANUPS: Record<EngineKind, CleanUpRun> = {
  local: cleanUpLocalRun,
  docker: cleanUpDaemonRun,
  swarm: cleanUpDaemonRun
}

/** Cleans up after a run the way the engine named in its record does. */
export const cleanUpRun: CleanUpRun = (record, log) => CLEANUPS[record.engine](record, log)
