import { probeInstance } from './probe'
import type { Waiter } from './types'

/** Ready once its port takes a connection: a generic service with a port and no `ready`. */
export const openPort: Waiter<'port'> = {
  wait: (_strategy, at) => probeInstance(at, null)
}
