import * as core from '@actions/core'
import type { Log } from '../suite/log'

/** Progress in collapsible log groups, warnings as annotations. */
export const actionsLog: Log = {
  info: message => core.info(message),
  warn: message => core.warning(message),
  group: (name, work) => core.group(name, work)
}
