import type { Waiter } from './types'

/** Ready once started: a generic service with neither a port nor a `ready` of its own. */
export const running: Waiter<'running'> = {
  wait: async () => undefined
}
