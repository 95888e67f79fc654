import type { Waiter } from './types'

/** Ready once a line of its output matches: each GNES service, a generic one's `ready: { log }`. */
export const logLine: Waiter<'log'> = {
  line: strategy => strategy.line,
  wait: (_strategy, at) => at.output.ready
}
