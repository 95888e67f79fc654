import * as fs from 'node:fs'
import * as path from 'node:path'
import { readHistory } from '../history'
import { renderReport } from '../render'
import { loadTopologyFile, resolveTopology } from '../topology/load'
import type { Topology } from '../topology/schema'
import type { Command } from './command'

const text = (v: string | boolean | undefined): string | null =>
  typeof v === 'string' && v.trim() !== '' ? v.trim() : null

/**
 * Topologies for the diagrams: the shipped standard cases, overridden or extended by the
 * `*.yml` files of a user's directory (keyed by the id inside each file).
 */
export function topologiesFor(
  caseIds: readonly string[],
  dir: string | null
): Record<string, Topology> {
  const out: Record<string, Topology> = {}
  for (const id of caseIds) {
    if (/^[1-4]$/.test(id)) out[id] = resolveTopology(id).topology
  }
  if (dir) {
    for (const name of fs
      .readdirSync(dir)
      .filter(n => /\.ya?ml$/.test(n))
      .sort()) {
      const t = loadTopologyFile(path.join(dir, name))
      out[t.id] = t
    }
  }
  return out
}

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
    const historyDir = text(values['history-dir'])
    const outDir = text(values.out)
    if (!historyDir || !outDir) throw new Error('render needs --history-dir DIR and --out DIR')
    const max = text(values['max-entries']) ?? '50'
    if (!/^\d+$/.test(max) || Number(max) < 1) {
      throw new Error(`--max-entries must be a whole number of at least 1, got '${max}'`)
    }
    const template = text(values.template)
    if (template && !fs.existsSync(template))
      throw new Error(`--template ${template}: no such file`)
    const entries = readHistory(historyDir)
    const caseIds = [...new Set(entries.map(e => e.caseId))]
    const files = await renderReport({
      entries,
      topologies: topologiesFor(caseIds, text(values.topologies)),
      outDir,
      template: template ?? undefined,
      maxEntries: Number(max),
      repositoryUrl: text(values['repository-url']) ?? undefined
    })
    console.log(
      `rendered ${entries.length} entries of ${caseIds.length} case(s): ${files.length} files in ${outDir}`
    )
    console.log(
      `preview: cd ${outDir} && python3 -m http.server 8000, then open http://localhost:8000/`
    )
    return 0
  }
}
