import * as fs from 'node:fs'
import * as path from 'node:path'
import { DEFAULTS, parseInputs, type RawInputs } from '../config/inputs'
import { shouldRecord } from '../history'
import { describeLocation, recordResult, renderHook, renderSettings } from '../record'
import type { Result } from '../result/schema'
import { resultTable } from '../result/table'
import { runSuite } from '../suite/run'
import type { Command } from './command'
import { historyLocation } from './history-flags'

/** Inputs that only mean something on Actions (pull-request comparison, pushing): `compare` has its own. */
const ACTION_ONLY = new Set(['auto-push', 'alert-threshold', 'fail-on-regression', 'comment-on-pr'])

/** Every other input is a flag of the same name; unset flags take the action's defaults. */
const options = {
  ...Object.fromEntries(
    Object.keys(DEFAULTS)
      .filter(name => !ACTION_ONLY.has(name))
      .map(name => [name, { type: 'string' as const }])
  ),
  /** Short for --out-dir. */
  out: { type: 'string' as const }
}

/** Writes `result.json` (the latest) and a copy named by its start time, never overwriting one. */
export function writeResult(result: Result, outDir: string): string {
  fs.mkdirSync(outDir, { recursive: true })
  const json = `${JSON.stringify(result, null, 2)}\n`
  const stamp = result.meta.startedAt.replace(/[:.]/g, '-')
  fs.writeFileSync(path.join(outDir, `result-${stamp}.json`), json, { flag: 'wx' })
  const latest = path.join(outDir, 'result.json')
  fs.writeFileSync(`${latest}.tmp`, json)
  fs.renameSync(`${latest}.tmp`, latest)
  return latest
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
    const result = await runSuite(inputs)
    const file = writeResult(result, inputs['out-dir'])
    console.log(`\nresult: ${file}\n\n${resultTable(result)}`)
    if (shouldRecord(inputs.record, null)) {
      // On a laptop the history is a plain directory, `<out-dir>/history` unless given.
      const location = historyLocation(values, path.join(inputs['out-dir'], 'history'))
      const recorded = await recordResult(
        result,
        inputs,
        location,
        renderHook(renderSettings(inputs))
      )
      const total = recorded.total === null ? '' : ` (${recorded.total} in all)`
      console.log(
        `\nhistory: ${recorded.added.length} entries added to ${describeLocation(location)}` +
          `${total}; report: README.md and index.html there`
      )
    }
    return 0
  }
}
