/**
 * How long does a full re-render take for a long history? Renders 10,000 entries over the four
 * standard cases (README, every chart as SVG, the dashboard and its data) and prints the time.
 * Target: under 2 s. Run twice: with the action's default --max-entries 50, and with every
 * entry in the README tables and static charts.
 *
 *   npm run bench:render -- [--entries 10000]
 */
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { parseArgs } from 'node:util'
import { renderReport } from '../src/render'
import { resolveTopology } from '../src/topology/load'
import { benchHistory } from '../__tests__/fixtures/render/entries'

const { values } = parseArgs({ options: { entries: { type: 'string', default: '10000' } } })
const n = Number(values.entries)
const entries = benchHistory(n)
const topologies = Object.fromEntries(
  ['1', '2', '3', '4'].map(id => [id, resolveTopology(id).topology])
)

async function main(): Promise<void> {
  for (const maxEntries of [50, n]) {
    const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-render-'))
    const start = process.hrtime.bigint()
    const files = await renderReport({ entries, topologies, outDir, maxEntries })
    const ms = Number(process.hrtime.bigint() - start) / 1e6
    const bytes = files.reduce((sum, f) => sum + fs.statSync(f).size, 0)
    console.log(
      `${n} entries, max-entries ${maxEntries}: ${files.length} files, ${(bytes / 1e6).toFixed(1)} MB in ${(ms / 1000).toFixed(2)} s`
    )
    fs.rmSync(outDir, { recursive: true, force: true })
  }
}

main().catch(err => {
  console.error(err)
  process.exitCode = 1
})
