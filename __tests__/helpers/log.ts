import type { Log } from '../../src/log'

/** The tests read results and errors, not progress. */
export const quiet: Log = {
  info: () => undefined,
  warn: () => undefined,
  group: (_name, work) => work()
}
