import { probeInstance } from './probe'
import type { Waiter } from './types'

/** Ready once a GET of its path answers 2xx: a generic service's `ready: { http }`. */
export const httpPath: Waiter<'http'> = {
  wait: (strategy, at) => probeInstance(at, strategy.path)
}
