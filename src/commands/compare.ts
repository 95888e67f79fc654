import * as fs from 'node:fs'
import { parseInputs } from '../config/inputs'
import { readHistory } from '../history/read'
import { compareResult, renderComparisonMarkdown } from '../report'
import { ResultSchema, type Result } from '../result/schema'
import type { Command } from './command'

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

const text = (v: string | boolean | undefined): string | null =>
  typeof v === 'string' && v.trim() !== '' ? v.trim() : null

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
    const resultFile = text(values.result)
    const historyDir = text(values['history-dir'])
    if (!resultFile || !historyDir)
      throw new Error('compare needs --result FILE and --history-dir DIR')
    // The action's own validation, so `10%`, `0.5%` and `10` mean the same here as there.
    const threshold = parseInputs({ 'alert-threshold': text(values['alert-threshold']) ?? '10%' })[
      'alert-threshold'
    ]
    const comparison = compareResult(readResult(resultFile), readHistory(historyDir), {
      threshold,
      baseRef: text(values['base-ref']),
      mergeBaseSha: text(values['merge-base'])
    })
    const markdown = renderComparisonMarkdown(comparison, {
      dashboardUrl: text(values['dashboard-url']),
      repositoryUrl: text(values['repository-url'])
    })
    const out = text(values.out)
    if (out) fs.writeFileSync(out, markdown)
    process.stdout.write(markdown)
    return values['fail-on-regression'] === true && comparison.regression ? 1 : 0
  }
}
