import { InputError } from '../config/inputs'
import { describeSweep, sweep } from '../engine/docker'
import type { Command } from './command'
import { print } from './output'

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }

/** `90s`, `30m`, `6h`, `2d` (a bare number is seconds) in milliseconds. */
function parseAge(value: string): number {
  const m = /^(\d+(?:\.\d+)?)([smhd]?)$/.exec(value.trim())
  if (!m) {
    throw new InputError(
      `Invalid input:\n  input 'older-than' = '${value}': older-than must be a duration such as 90s, 30m, 6h or 2d`
    )
  }
  return Number(m[1]) * UNIT_MS[m[2] || 's']
}

export const cleanupCommand: Command = {
  name: 'cleanup',
  summary:
    'remove the Docker containers, networks and Swarm services/configs of benchmark runs (by run id, repository or age)',
  options: {
    'run-id': {
      type: 'string',
      description: 'Remove what one run created (the run id it printed, or the action saved).'
    },
    repository: {
      type: 'string',
      description: 'Remove what runs of this owner/name repository created.'
    },
    'older-than': {
      type: 'string',
      description: 'Remove what was created longer ago than this: 90s, 30m, 6h or 2d.'
    },
    all: {
      type: 'boolean',
      description:
        'Remove every benchmark container and network on the daemon (shared daemons too).'
    }
  },
  async run(values) {
    const runId = values['run-id'] as string | undefined
    const repository = values.repository as string | undefined
    const olderThan = values['older-than'] as string | undefined
    // Sweeping every run on a shared daemon must be asked for explicitly.
    if (!runId && !repository && !olderThan && !values.all) {
      throw new InputError('cleanup needs --run-id, --repository, --older-than or --all')
    }
    const removed = await sweep({
      runId,
      repository,
      olderThan: olderThan === undefined ? undefined : parseAge(olderThan)
    })
    print(`removed ${describeSweep(removed)}`)
    return 0
  }
}
