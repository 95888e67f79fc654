import * as fs from 'node:fs'
import { parseInput } from '../config/input'
import { thresholdFor } from '../config/inputs'
import { readHistory } from '../history'
import { compareWithHistory, readResult } from '../pipeline'
import type { Command } from './command'
import { existingHistoryDir, flagText } from './history-flags'
import { terminalSafe } from '../text/terminal'

export const compareCommand: Command = {
  name: 'compare',
  summary: 'Compare a result with its baseline in a history directory; print the Markdown report',
  options: {
    result: { type: 'string', description: 'The result JSON of a run (out/result.json).' },
    'history-dir': {
      type: 'string',
      description: 'The history directory holding the baseline (a plain directory).'
    },
    'base-ref': {
      type: 'string',
      description:
        'Branch the change goes into; its newest entry is the baseline without --merge-base.'
    },
    'merge-base': {
      type: 'string',
      description: 'Commit the change started from; its entry is the baseline when stored.'
    },
    'alert-threshold': { type: 'string' },
    'dashboard-url': { type: 'string', description: 'Dashboard address the report links to.' },
    'repository-url': {
      type: 'string',
      description: 'https://github.com/owner/repo, for commit links in the report.'
    },
    out: { type: 'string', description: 'Also write the Markdown report to this file.' },
    'fail-on-regression': {
      type: 'boolean',
      description: 'Exit with status 1 when any case regresses.'
    },
    'on-inconclusive': {
      type: 'string',
      description:
        'warn (default): say on standard error which cases this run cannot tell; fail: also exit with status 1.'
    }
  },
  async run(values) {
    const resultFile = flagText(values.result)
    const historyDir = flagText(values['history-dir'])
    if (!resultFile || !historyDir)
      throw new Error('compare needs --result FILE and --history-dir DIR')
    // The action's own validation, so `10%`, `0.5%` and `10` mean the same here as there.
    // `compare` reads a history baseline: `auto` is history mode's threshold.
    const threshold = thresholdFor(
      parseInput('alert-threshold', flagText(values['alert-threshold'])),
      'history'
    )
    const onInconclusive = parseInput('on-inconclusive', flagText(values['on-inconclusive']))
    const { comparison, markdown } = compareWithHistory(
      readResult(resultFile, '--result'),
      readHistory(existingHistoryDir(historyDir)),
      {
        threshold,
        baseRef: flagText(values['base-ref']),
        mergeBaseSha: flagText(values['merge-base'])
      },
      {
        dashboardUrl: flagText(values['dashboard-url']),
        repositoryUrl: flagText(values['repository-url'])
      }
    )
    const out = flagText(values.out)
    if (out) fs.writeFileSync(out, markdown)
    // The report goes out byte for byte (it may be piped into a file), control characters aside.
    process.stdout.write(terminalSafe(markdown))
    const unknown = comparison.verdicts.filter(v => v.verdict === 'inconclusive')
    if (unknown.length) {
      process.stderr.write(
        terminalSafe(
          `inconclusive: this run cannot tell whether latency changed in ${unknown.map(v => `case ${v.case} (${v.profile})`).join(', ')}\n`
        )
      )
    }
    if (values['fail-on-regression'] === true && comparison.regression) return 1
    return onInconclusive === 'fail' && unknown.length ? 1 : 0
  }
}
