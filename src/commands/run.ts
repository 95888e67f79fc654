import * as path from 'node:path'
import {
  DEFAULTS,
  deprecationNotes,
  InputError,
  parseInputs,
  type RawInputs
} from '../config/inputs'
import { localGitMeta, type GitFlags } from '../result/local-git'
import { gitMeta } from '../result/meta'
import { consoleLog } from '../log'
import { stepsText } from '../report/step-alert'
import { describeLocation, runBenchmark } from '../pipeline'
import { resultTable } from '../result/table'
import type { Command, Flag } from './command'
import { flagLocation, flagText, HISTORY_FLAGS } from './history-flags'
import { print } from './output'
import { count } from '../text/count'

/**
 * Inputs that only mean something on Actions (pull-request comparison, pushing, the Actions
 * cache): `compare` has its own. `alert-threshold` stays: a paired run (`--baseline paired`)
 * judges its two sides here. A result file is recorded by `record`, which runs nothing.
 */
const ACTION_ONLY = new Set([
  'auto-push',
  'fail-on-regression',
  'on-inconclusive',
  'comment-on-pr',
  'comment-key',
  'check-run',
  'cache',
  'result-file'
])

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
  out: { type: 'string', description: 'Short for --out-dir.' },
  'git-sha': {
    type: 'string',
    description: "The benchmarked commit's 40-digit sha (default: HEAD of the work tree, if any)."
  },
  'git-ref': {
    type: 'string',
    description: 'Its ref, e.g. refs/heads/main (default: the branch).'
  },
  'git-message': { type: 'string', description: 'Its subject line (default: from git log).' },
  'git-repository': {
    type: 'string',
    description: "owner/name on GitHub, for commit links (default: from origin's URL)."
  }
}

/** The commit flags, checked; null where not given. */
function gitFlags(values: Record<string, string | boolean | undefined>): GitFlags {
  const text = (name: string): string | null => flagText(values[name])
  const sha = text('git-sha')
  if (sha !== null && !/^[0-9a-f]{40}$/.test(sha)) {
    throw new InputError(`--git-sha '${sha}' must be a full commit sha (40 hex digits)`)
  }
  const repository = text('git-repository')
  if (repository !== null && !/^[\w.-]+\/[\w.-]+$/.test(repository)) {
    throw new InputError(`--git-repository '${repository}' must be owner/name, such as octo/bench`)
  }
  const ref = text('git-ref')
  if (ref !== null && !/^refs\/[\w./-]+$/.test(ref)) {
    throw new InputError(`--git-ref '${ref}' must be a full ref, such as refs/heads/main`)
  }
  return { sha, ref, message: text('git-message'), repository }
}

export const runCommand: Command = {
  name: 'run',
  summary:
    'run the suite (default: the four standard cases at the standard load), record it in the history and render the report',
  options,
  async run(values) {
    const { out, ...rest } = values
    // The commit flags describe the result, not the suite: they are no inputs.
    const raw = Object.fromEntries(
      Object.entries({ 'out-dir': out, ...rest }).filter(
        ([k, v]) => typeof v === 'string' && !k.startsWith('git-')
      )
    ) as Partial<RawInputs>
    for (const note of deprecationNotes(raw)) consoleLog.warn(note)
    const inputs = parseInputs(raw)
    const flags = gitFlags(values)
    // On Actions the workflow says which commit it is; elsewhere the work tree (or the flags).
    const git =
      process.env.GITHUB_ACTIONS === 'true'
        ? {
            ...gitMeta(),
            ...Object.fromEntries(Object.entries(flags).filter(([, v]) => v !== null))
          }
        : await localGitMeta(process.cwd(), flags)
    // On a laptop the history is a plain directory, `<out-dir>/history` unless given.
    const location = flagLocation(values, path.join(inputs['out-dir'], 'history'))
    await runBenchmark(inputs, {
      log: consoleLog,
      git,
      event: null,
      history: location,
      links: { dashboardUrl: inputs['dashboard-url'] },
      pullRequest: null,
      async written(result, file) {
        print(`\nresult: ${file}\n\n${resultTable(result)}`)
      },
      async judged(verdict, _result, thresholds) {
        if (verdict) print(`\nbase result: ${verdict.base}\n\n${verdict.markdown}`)
        else if (thresholds?.markdown) print(`\n${thresholds.markdown}`)
      },
      async record(append) {
        if (!append) return
        const recorded = await append(location)
        const total = recorded.total === null ? '' : ` (${recorded.total} in all)`
        print(
          `\nhistory: ${count(recorded.added.length, 'entry', 'entries')} added to ${describeLocation(location)}` +
            `${total}; report: README.md and index.html there`
        )
        const steps = stepsText(recorded.alerts)
        if (steps) print(steps)
      }
    })
    return 0
  }
}
