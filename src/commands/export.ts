import * as fs from 'node:fs'
import * as path from 'node:path'
import { readHistory } from '../history'
import { readResult } from '../pipeline'
import { toBenchmarkAction, toBmf, toCsv, toHgrm } from '../report/export'
import type { Command } from './command'
import { existingHistoryDir, flagText } from './history-flags'
import { terminalSafe } from '../text/terminal'

const FORMATS = {
  bmf: 'Bencher Metric Format (bencher run --adapter json)',
  'benchmark-action': "github-action-benchmark's customSmallerIsBetter JSON",
  csv: 'CSV, one row per entry and published figure (from --history-dir)',
  hgrm: "HdrHistogram's percentile distribution in ms, one per case and profile (a sweep's per step); --out is then a directory"
} as const
type Format = keyof typeof FORMATS

export const exportCommand: Command = {
  name: 'export',
  summary:
    'write a result (Bencher Metric Format, github-action-benchmark JSON, HdrHistogram percentiles) or a history (CSV) in the formats other tools read',
  options: {
    format: {
      type: 'string',
      description: Object.entries(FORMATS)
        .map(([k, v]) => `${k}: ${v}`)
        .join('; ')
    },
    result: { type: 'string', description: 'The result JSON of a run (bmf, benchmark-action).' },
    'history-dir': { type: 'string', description: 'A history directory (csv).' },
    metric: {
      type: 'string',
      description: "The metric of hgrm, such as latency or path (default: each case's headline)."
    },
    out: { type: 'string', description: 'Write here instead of standard output.' }
  },
  async run(values) {
    const format = flagText(values.format)
    if (!format || !(format in FORMATS)) {
      throw new Error(
        `--format must be one of ${Object.keys(FORMATS).join(', ')}${format ? ` (not '${format}')` : ''}`
      )
    }
    const resultFile = flagText(values.result)
    const historyDir = flagText(values['history-dir'])
    const out = flagText(values.out)
    let text: string
    if ((format as Format) === 'hgrm') {
      if (!resultFile) throw new Error('export --format hgrm needs --result FILE')
      const files = toHgrm(readResult(resultFile, '--result'), flagText(values.metric))
      if (!files.length)
        throw new Error(`the result holds no samples of ${flagText(values.metric)}`)
      if (out) {
        fs.mkdirSync(out, { recursive: true })
        for (const f of files) fs.writeFileSync(path.join(out, f.name), f.text)
        process.stdout.write(`${files.map(f => path.join(out, f.name)).join('\n')}\n`)
        return 0
      }
      // One stream: each distribution under a comment line, which .hgrm readers skip.
      text = files.map(f => `# ${f.name}\n${f.text}`).join('\n')
    } else if ((format as Format) === 'csv') {
      if (!historyDir) throw new Error('export --format csv needs --history-dir DIR')
      text = toCsv(readHistory(existingHistoryDir(historyDir)))
    } else {
      if (!resultFile) throw new Error(`export --format ${format} needs --result FILE`)
      const result = readResult(resultFile, '--result')
      const data = format === 'bmf' ? toBmf(result) : toBenchmarkAction(result)
      text = `${JSON.stringify(data, null, 2)}\n`
    }
    if (out) fs.writeFileSync(out, text)
    // History text is untrusted: a terminal sees its control characters as escapes.
    else process.stdout.write(process.stdout.isTTY ? terminalSafe(text) : text)
    return 0
  }
}
