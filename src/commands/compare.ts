import * as fs from 'node:fs'
import { parseInput } from '../config/input'
import { readHistory } from '../history'
import { compareWithHistory, readResult } from '../pipeline'
import type { Command } from './command'
import { flagText } from './history-flags'
import { terminalSafe } from '../text/terminal'

export const compareCommand: Command = {
  name: 'compare',
  summary: 'Compare a result with its baseline in a history directory; print the Markdown report',
  options: {
    result: { type: 'string' },
    'history-dir': { type: 'string' },
    'base-ref': { type: 'string' },
    'merge-base': { type: 'string' },
    'alert-threshold': { type: 'string' },
    'dashboard-url': { type: 'string' },
    'repository-url': { type: 'string' },
    out: { type: 'string' },
    'fail-on-regression': { type: 'boolean' }
  },
  async run(values) {
    const resultFile = flagText(values.result)
    const historyDir = flagText(values['history-dir'])
    if (!resultFile || !historyDir)
      throw new Error('compare needs --result FILE and --history-dir DIR')
    // The action's own validation, so `10%`, `0.5%` and `10` mean the same here as there.
    const threshold = parseInput('alert-threshold', flagText(values['alert-threshold']))
    const { comparison, markdown } = compareWithHistory(
      readResult(resultFile, '--result'),
      readHistory(historyDir),
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
    return values['fail-on-regression'] === true && comparison.regression ? 1 : 0
  }
}
