import * as fs from 'node:fs'
import * as path from 'node:path'
import { readHistory } from '../history'
import { DEFAULTS, InputError } from '../config/inputs'
import { foreignFiles, renderReport, templateProblem } from '../render'
import { knownTopologies } from '../pipeline'
import { loadTopologyFile } from '../topology/load'
import type { Topology } from '../topology/schema'
import type { Command } from './command'
import { existingHistoryDir, flagText } from './history-flags'
import { print } from './output'
import { count } from '../text/count'

/** A user's topologies (`*.yml` in --topologies DIR), for their diagrams. */
const userTopologies = (dir: string | null): Topology[] =>
  dir
    ? fs
        .readdirSync(dir)
        .filter(n => /\.ya?ml$/.test(n))
        .sort()
        .map(n => loadTopologyFile(path.join(dir, n)))
    : []

export const renderCommand: Command = {
  name: 'render',
  summary: 'Render README, charts and the dashboard from a history directory, to preview locally',
  options: {
    'history-dir': { type: 'string', description: 'The history directory to render from.' },
    out: { type: 'string', description: 'Directory to write README.md, charts and index.html to.' },
    template: {
      type: 'string',
      description: 'Handlebars template for the README instead of the shipped one.'
    },
    'max-entries': { type: 'string' },
    topologies: {
      type: 'string',
      description: 'A directory of your own topology files (*.yml), for their diagrams.'
    },
    'repository-url': {
      type: 'string',
      description: 'https://github.com/owner/repo, for commit links.'
    },
    force: {
      type: 'boolean',
      description:
        'Overwrite a README.md or index.html in --out that gnes-latency-bench did not write.'
    }
  },
  async run(values) {
    const historyDir = flagText(values['history-dir'])
    const outDir = flagText(values.out)
    if (!historyDir || !outDir) throw new Error('render needs --history-dir DIR and --out DIR')
    const max = flagText(values['max-entries']) ?? DEFAULTS['max-entries']
    if (!/^\d+$/.test(max) || Number(max) < 1) {
      throw new Error(`--max-entries must be a whole number of at least 1, got '${max}'`)
    }
    const template = flagText(values.template)
    const why = template && templateProblem(template)
    if (why) throw new Error(`--template ${template}: ${why}`)
    existingHistoryDir(historyDir)
    const foreign = values.force === true ? [] : foreignFiles(outDir)
    if (foreign.length) {
      throw new InputError(
        `--out ${outDir}: ${foreign.join(' and ')} ${foreign.length > 1 ? 'were' : 'was'} not written by gnes-latency-bench ` +
          '(no marker); choose another --out, or pass --force to overwrite'
      )
    }
    const entries = readHistory(historyDir)
    const caseIds = [...new Set(entries.map(e => e.caseId))]
    const files = await renderReport({
      entries,
      topologies: knownTopologies(userTopologies(flagText(values.topologies))),
      outDir,
      template: template ?? undefined,
      maxEntries: Number(max),
      repositoryUrl: flagText(values['repository-url']) ?? undefined
    })
    print(
      `rendered ${count(entries.length, 'entry', 'entries')} of ${count(caseIds.length, 'case')}: ${count(files.length, 'file')} in ${outDir}`
    )
    print(`preview: open ${path.join(outDir, 'index.html')} (from disk or over HTTP)`)
    return 0
  }
}
