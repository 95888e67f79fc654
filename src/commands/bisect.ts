import * as fs from 'node:fs'
import * as path from 'node:path'
import {
  DEFAULTS,
  deprecationNotes,
  InputError,
  parseInputs,
  type RawInputs
} from '../config/inputs'
import { readHistory } from '../history'
import { consoleLog } from '../log'
import { bisect } from '../pipeline'
import { renderBisectMarkdown } from '../report'
import { shownSeries } from '../render'
import { slowdownToBisect } from '../judge'
import { stepRange, stepSize } from '../render/steps'
import { terminalSafe } from '../text/terminal'
import type { Command, Flag } from './command'
import { existingHistoryDir, flagText } from './history-flags'
import { print } from './output'

/**
 * Inputs a bisect sets itself (it pairs commits: the base is always the nearer commit), that
 * only mean something on Actions, or that run nothing (`result-file`); every other input is a
 * flag, as for `run`.
 */
const NOT_FLAGS = new Set([
  'result-file',
  'auto-push',
  'fail-on-regression',
  'on-inconclusive',
  'comment-on-pr',
  'comment-key',
  'check-run',
  'cache',
  'baseline',
  'baseline-ref',
  'baseline-gnes-version',
  'baseline-image',
  'baseline-topology'
])

const options: Record<string, Flag> = {
  good: { type: 'string', description: 'A commit without the slowdown (the older end).' },
  bad: { type: 'string', description: 'A commit with it, a descendant of --good.' },
  'change-point': {
    type: 'string',
    description:
      'Instead of --good/--bad: bisect a slowdown the history in --history-dir shows, the newest (`newest`), or the newest of one case (`1`) or series (`1/minimal@5`); the bisect runs that case unless --cases is given.'
  },
  repo: {
    type: 'string',
    description:
      'The git repository the commits are in; topology, gnes-source and dockerfile paths inside it are taken from each commit.',
    default: '.'
  },
  'repository-url': {
    type: 'string',
    description: 'https://github.com/owner/repo, for commit links in the report.'
  },
  ...Object.fromEntries(
    Object.keys(DEFAULTS)
      .filter(name => !NOT_FLAGS.has(name))
      .map(name => [name, { type: 'string' } satisfies Flag])
  ),
  out: { type: 'string', description: 'Short for --out-dir.' }
}

/**
 * The commits to bisect between: --good and --bad, or those on either side of a slowdown the
 * history shows (--change-point), then with the case it is of.
 */
function bisectEnds(values: Record<string, string | boolean | undefined>): {
  good: string
  bad: string
  cases?: string
} {
  const good = flagText(values.good)
  const bad = flagText(values.bad)
  const which = flagText(values['change-point'])
  if (which) {
    if (good || bad) throw new InputError('give --change-point or --good/--bad, not both')
    const dir = flagText(values['history-dir'])
    if (!dir) throw new InputError('--change-point reads the history: give --history-dir DIR')
    const step = slowdownToBisect(
      shownSeries(readHistory(existingHistoryDir(dir)), Infinity),
      which
    )
    const range = stepRange(step)
    consoleLog.info(
      `bisecting the slowdown of case ${step.caseId}'s ${step.metric} ${stepSize(step)} between ${range.from} and ${range.to}`
    )
    return {
      good: step.lastBefore.commit.sha!,
      bad: step.firstAfter.commit.sha!,
      cases: step.caseId
    }
  }
  if (!good || !bad) {
    throw new InputError('bisect needs --good COMMIT and --bad COMMIT, or --change-point')
  }
  return { good, bad }
}

export const bisectCommand: Command = {
  name: 'bisect',
  summary:
    'find the first slow commit between a good and a bad one by paired runs between commits, halving the range each step',
  options,
  async run(values) {
    const ends = bisectEnds(values)
    // The bisect's own flags are no inputs.
    const own = new Set(['good', 'bad', 'change-point', 'repo', 'repository-url', 'out'])
    const raw = Object.fromEntries(
      Object.entries({ ...values, 'out-dir': values['out-dir'] ?? values.out }).filter(
        ([k, v]) => typeof v === 'string' && !own.has(k)
      )
    ) as Partial<RawInputs>
    for (const note of deprecationNotes(raw)) consoleLog.warn(note)
    const inputs = parseInputs({ ...raw, cases: raw.cases ?? ends.cases, baseline: 'paired' })
    const { good, bad } = ends
    const run = await bisect(
      inputs,
      { repo: flagText(values.repo) ?? '.', good, bad },
      { log: consoleLog }
    )
    const markdown = renderBisectMarkdown(run, {
      repositoryUrl: flagText(values['repository-url'])
    })
    fs.mkdirSync(inputs['out-dir'], { recursive: true })
    const file = path.join(inputs['out-dir'], 'bisect.md')
    fs.writeFileSync(file, markdown)
    fs.writeFileSync(
      path.join(inputs['out-dir'], 'bisect.json'),
      `${JSON.stringify(run, null, 2)}\n`
    )
    print(`\n${terminalSafe(markdown)}\nreport: ${file}`)
    return 0
  }
}
