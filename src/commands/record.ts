import { InputError, parseInputs, type RawInputs } from '../config/inputs'
import { consoleLog } from '../log'
import { describeLocation, recordResultFile } from '../pipeline'
import { stepsText } from '../report/step-alert'
import { resultTable } from '../result/table'
import { count } from '../text/count'
import type { Command, Flag } from './command'
import { flagLocation, flagText, HISTORY_FLAGS } from './history-flags'
import { print } from './output'

/** Flags that are inputs of the same name: how the report renders and what a step alerts at. */
const INPUT_FLAGS = ['max-entries', 'readme-template', 'alert-threshold'] as const

const options: Record<string, Flag> = {
  result: {
    type: 'string',
    description:
      "The result JSON to record: out/result.json (or the action's `result` output) of a run on another machine."
  },
  ...HISTORY_FLAGS,
  ...Object.fromEntries(INPUT_FLAGS.map(name => [name, { type: 'string' } satisfies Flag])),
  topology: {
    type: 'string',
    description:
      "The result's own topology files, comma-separated, for their diagrams in the report; the result must hold each of their cases."
  },
  'repository-url': {
    type: 'string',
    description: 'https://github.com/owner/repo, for commit links in the report.'
  }
}

export const recordCommand: Command = {
  name: 'record',
  summary:
    'record a result measured elsewhere in the history and re-render the report, in one write, with the checks of a recording run',
  options,
  async run(values) {
    const file = flagText(values.result)
    if (!file) throw new InputError('record needs --result FILE (the result JSON of a run)')
    const location = flagLocation(values)
    const raw = Object.fromEntries(
      [...INPUT_FLAGS, 'topology'].map(name => [name, flagText(values[name]) ?? undefined])
    ) as Partial<RawInputs>
    const inputs = parseInputs({ ...raw, 'result-file': file, record: 'true' })
    await recordResultFile(
      file,
      inputs,
      {
        log: consoleLog,
        event: null,
        history: location,
        links: { dashboardUrl: null, repositoryUrl: flagText(values['repository-url']) },
        async written(result) {
          print(
            `result: ${file}, commit ${result.meta.git.sha ?? 'unknown'}\n\n${resultTable(result)}`
          )
        },
        async judged() {},
        async record(append) {
          if (!append) return
          const recorded = await append(location)
          const total = recorded.total === null ? '' : ` (${recorded.total} in all)`
          const present = recorded.present.length
            ? `; ${count(recorded.present.length, 'entry', 'entries')} of it stored already, left as they were`
            : ''
          print(
            `\nhistory: ${count(recorded.added.length, 'entry', 'entries')} added to ${describeLocation(location)}` +
              `${total}${present}; report: README.md and index.html there`
          )
          const steps = stepsText(recorded.alerts)
          if (steps) print(steps)
        }
      },
      '--result'
    )
    return 0
  }
}
