import * as path from 'node:path'
import { DEFAULTS, parseInputs, type RawInputs } from '../config/inputs'
import { shouldRecord } from '../history'
import {
  comparePairedRun,
  describeLocation,
  preflight,
  recordResult,
  runPairedSuite,
  runSuite,
  writeResult
} from '../pipeline'
import { resultTable } from '../result/table'
import type { Command, Flag } from './command'
import { flagLocation, HISTORY_FLAGS } from './history-flags'
import { print } from './output'

/**
 * Inputs that only mean something on Actions (pull-request comparison, pushing): `compare` has its
 * own. `alert-threshold` stays: a paired run (`--baseline paired`) judges its two sides here.
 */
const ACTION_ONLY = new Set(['auto-push', 'fail-on-regression', 'on-inconclusive', 'comment-on-pr'])

/**
 * Every other input is a flag of the same name, described and defaulted as in action.yml; the
 * history flags mean on a laptop what they mean for the other commands.
 */
const options: Record<string, Flag> = {
  ...Object.fromEntries(
    Object.keys(DEFAULTS)
      .filter(name => !ACTION_ONLY.has(name))
      .map(name => [name, { type: 'string' }])
  ),
  ...HISTORY_FLAGS,
  'history-dir': {
    ...HISTORY_FLAGS['history-dir'],
    default: '<out-dir>/history, or benchmarks on a branch'
  },
  out: { type: 'string', description: 'Short for --out-dir.' }
}

export const runCommand: Command = {
  name: 'run',
  summary:
    'run the suite (default: the four standard cases at the standard load), record it in the history and render the report',
  options,
  async run(values) {
    const { out, ...rest } = values
    const raw = Object.fromEntries(
      Object.entries({ 'out-dir': out, ...rest }).filter(([, v]) => typeof v === 'string')
    ) as Partial<RawInputs>
    const inputs = parseInputs(raw)
    const record = shouldRecord(inputs.record, null)
    // On a laptop the history is a plain directory, `<out-dir>/history` unless given.
    const location = flagLocation(values, path.join(inputs['out-dir'], 'history'))
    const pairs = await preflight(
      inputs,
      !record
        ? {}
        : location.kind === 'dir'
          ? { dir: location.dir }
          : { repository: { url: location.repo, token: location.token } }
    )
    const cases = pairs.map(p => p.head)
    const paired = inputs.baseline === 'paired' ? await runPairedSuite(inputs, { pairs }) : null
    const result = paired?.head ?? (await runSuite(inputs, { cases }))
    const file = writeResult(result, inputs['out-dir'])
    print(`\nresult: ${file}\n\n${resultTable(result)}`)
    if (paired) {
      // The base is kept for inspection beside the head's result, never recorded.
      const base = writeResult(paired.base, path.join(inputs['out-dir'], 'base'))
      const { markdown } = comparePairedRun(paired, { threshold: inputs['alert-threshold'] }, {})
      print(`\nbase result: ${base}\n\n${markdown}`)
    }
    if (record) {
      const recorded = await recordResult(result, location, { inputs, cases })
      const total = recorded.total === null ? '' : ` (${recorded.total} in all)`
      print(
        `\nhistory: ${recorded.added.length} entries added to ${describeLocation(location)}` +
          `${total}; report: README.md and index.html there`
      )
    }
    return 0
  }
}
