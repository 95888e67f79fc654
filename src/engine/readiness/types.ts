import type { EngineKind } from '../../config/engines'
import type { LogTail } from '../log-tail'
import type { InstancePlan, ReadinessKind, WaitStrategy } from '../plan/types'
import type { Started } from '../platform'

type WaitOf<K extends ReadinessKind> = Extract<WaitStrategy, { kind: K }>

/** What a wait reads of one started instance, whatever platform started it. */
export interface Waiting {
  readonly instance: InstancePlan
  readonly started: Started
  readonly output: LogTail
  /** The engine it runs on, for messages. */
  readonly engine: EngineKind
  /** Where this host reaches it (asked once); null where it cannot (a task on another node). */
  address(): Promise<string | null>
}

/** One readiness kind: how its instances are awaited, written once for every platform. */
export interface Waiter<K extends ReadinessKind = ReadinessKind> {
  /**
   * Resolves once the instance is ready; stays pending when it never will be (its exit then fails
   * the deployment); rejects when it cannot tell, with a ServiceFailure when its platform says it
   * never will be.
   */
  wait(strategy: WaitOf<K>, at: Waiting): Promise<void>
  /** The line of its output it waits for, watched from the output's first byte on. */
  readonly line?: (strategy: WaitOf<K>) => RegExp
  /** A one-shot job's: the exit 0 it waits for is what the job runs for, not a failure. */
  readonly oneShot?: true
}
