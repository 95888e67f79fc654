import * as fs from 'node:fs'
import { parseInputs } from '../config/inputs'
import { readHistory } from '../history'
import { compareResult, renderComparisonMarkdown } from '../report'
import { ResultSchema, type Result } from '../result/schema'
import type { Command } from './command'
import { existingHistoryDir, flagText } from './history-flags'

function readResult(file: string): Result {
  let raw: unknown
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'))
  } catch (err) {
    throw new Error(`--result ${file}: cannot read a JSON result: ${(err as Error).message}`)
  }
  const parsed = ResultSchema.safeParse(raw)
  if (!parsed.success) {
    const first = parsed.error.issues[0]
    throw new Error(
      `--result ${file}: not a suite result: at ${first.path.join('.')}: ${first.message}`
    )
  }
  return parsed.data
}

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
    const threshold = parseInputs({
      'alert-threshold': flagText(values['alert-threshold']) ?? '10%'
    })['alert-threshold']
    const comparison = compareResult(
      readResult(resultFile),
      readHistory(existingHistoryDir(historyDir)),
      {
        threshold,
        baseRef: flagText(values['base-ref']),
        mergeBaseSha: flagText(values['merge-base'])
      }
    )
    const markdown = renderComparisonMarkdown(comparison, {
      dashboardUrl: flagText(values['dashboard-url']),
      repositoryUrl: flagText(values['repository-url'])
    })
    const out = flagText(values.out)
    if (out) fs.writeFileSync(out, markdown)
    process.stdout.write(markdown)
    return values['fail-on-regression'] === true && comparison.regression ? 1 : 0
  }
}
