import type { Waiter } from './types'

/** Ready once it exits 0: a one-shot job, which a dependent awaits with `condition: completed`. */
export const completed: Waiter<'completed'> = {
  oneShot: true,
  // Any other exit is a failure, which the lifecycle reports; readiness then stays pending.
  wait: async (_strategy, at) =>
    (await at.started.exitCode) === 0 ? undefined : new Promise<never>(() => undefined)
}
