import * as fs from 'node:fs'
import * as path from 'node:path'
import { DEFAULTS, InputError, parseInputs, type RawInputs } from '../config/inputs'
import { consoleLog } from '../log'
import { bisect } from '../pipeline'
import { renderBisectMarkdown } from '../report'
import { terminalSafe } from '../text/terminal'
import type { Command, Flag } from './command'
import { flagText } from './history-flags'
import { print } from './output'

/**
 * Inputs a bisect sets itself (it pairs commits: the base is always the nearer commit) or that
 * only mean something on Actions; every other input is a flag, as for `run`.
 */
const NOT_FLAGS = new Set([
  'auto-push',
  'fail-on-regression',
  'on-inconclusive',
  'comment-on-pr',
  'baseline',
  'baseline-ref',
  'baseline-gnes-version',
  'baseline-image',
  'baseline-topology'
])

const options: Record<string, Flag> = {
  good: { type: 'string', description: 'A commit without the slowdown (the older end).' },
  bad: { type: 'string', description: 'A commit with it, a descendant of --good.' },
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

export const bisectCommand: Command = {
  name: 'bisect',
  summary:
    'find the first slow commit between a good and a bad one by paired runs between commits, halving the range each step',
  options,
  async run(values) {
    const good = flagText(values.good)
    const bad = flagText(values.bad)
    if (!good || !bad) throw new InputError('bisect needs --good COMMIT and --bad COMMIT')
    // The bisect's own flags are no inputs.
    const own = new Set(['good', 'bad', 'repo', 'repository-url', 'out'])
    const raw = Object.fromEntries(
      Object.entries({ ...values, 'out-dir': values['out-dir'] ?? values.out }).filter(
        ([k, v]) => typeof v === 'string' && !own.has(k)
      )
    ) as Partial<RawInputs>
    const inputs = parseInputs({ ...raw, baseline: 'paired' })
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
