import type { ReadinessKind, WaitStrategy } from '../plan/types'
import { completed } from './completed'
import { healthCheck } from './healthcheck'
import { httpPath } from './http'
import { logLine } from './log'
import { openPort } from './port'
import { running } from './running'
import type { Waiter, Waiting } from './types'

export type { Waiting } from './types'

/**
 * Every readiness kind's waiter, in one table: a new kind fails to compile here until its module
 * answers, so no strategy falls through to another's wait.
 */
const WAITERS: { [K in ReadinessKind]: Waiter<K> } = {
  log: logLine,
  http: httpPath,
  port: openPort,
  healthcheck: healthCheck,
  running,
  completed
}

// Each row takes only its own kind's strategy, which its key guarantees.
const waiterOf = (strategy: WaitStrategy): Waiter => WAITERS[strategy.kind] as Waiter

/** Resolves once the instance is ready by `strategy` (see Waiter.wait). */
export const waitReady = (strategy: WaitStrategy, at: Waiting): Promise<void> =>
  waiterOf(strategy).wait(strategy, at)

/** The line of its output `strategy` waits for, which its LogTail watches from the start. */
export const readyLine = (strategy: WaitStrategy): RegExp | undefined =>
  waiterOf(strategy).line?.(strategy)

/** True where `strategy` is a one-shot job's: its exit 0 is no failure. */
export const isOneShot = (strategy: WaitStrategy): boolean => waiterOf(strategy).oneShot === true
