import * as core from '@actions/core'
import type { Log } from '../log'
import { actionsSafe } from '../text/terminal'

/** Progress in collapsible log groups, warnings as annotations. */
export const actionsLog: Log = {
  info: message => core.info(actionsSafe(message)),
  warn: message => core.warning(actionsSafe(message)),
  group: (name, work) => core.group(actionsSafe(name), work)
}

/** Marks the step failed; the message quotes inputs and files, so it is made safe first. */
export const fail = (message: string): void => core.setFailed(actionsSafe(message))
