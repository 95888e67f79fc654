import * as fs from 'node:fs'
import * as path from 'node:path'
import { readHistory } from '../history'
import { renderReport } from '../render'
import { knownTopologies } from '../record'
import type { Command } from './command'
import { existingHistoryDir, flagText } from './history-flags'

/** A user's topology files (`*.yml` in --topologies DIR), for their diagrams. */
const topologyFiles = (dir: string | null): string[] =>
  dir
    ? fs
        .readdirSync(dir)
        .filter(n => /\.ya?ml$/.test(n))
        .sort()
        .map(n => path.join(dir, n))
    : []

export const renderCommand: Command = {
  name: 'render',
  summary: 'Render README, charts and the dashboard from a history directory, to preview locally',
  options: {
    'history-dir': { type: 'string' },
    out: { type: 'string' },
    template: { type: 'string' },
    'max-entries': { type: 'string' },
    topologies: { type: 'string' },
    'repository-url': { type: 'string' }
  },
  async run(values) {
    const historyDir = flagText(values['history-dir'])
    const outDir = flagText(values.out)
    if (!historyDir || !outDir) throw new Error('render needs --history-dir DIR and --out DIR')
    const max = flagText(values['max-entries']) ?? '50'
    if (!/^\d+$/.test(max) || Number(max) < 1) {
      throw new Error(`--max-entries must be a whole number of at least 1, got '${max}'`)
    }
    const template = flagText(values.template)
    if (template && !fs.existsSync(template))
      throw new Error(`--template ${template}: no such file`)
    const entries = readHistory(existingHistoryDir(historyDir))
    const caseIds = [...new Set(entries.map(e => e.caseId))]
    const files = await renderReport({
      entries,
      topologies: knownTopologies(topologyFiles(flagText(values.topologies))),
      outDir,
      template: template ?? undefined,
      maxEntries: Number(max),
      repositoryUrl: flagText(values['repository-url']) ?? undefined
    })
    console.log(
      `rendered ${entries.length} entries of ${caseIds.length} case(s): ${files.length} files in ${outDir}`
    )
    console.log(`preview: open ${path.join(outDir, 'index.html')} (from disk or over HTTP)`)
    return 0
  }
}
