/**
 * Does a bisect name the culprit, and at what cost? A GNES repository of `--commits` commits:
 * 0.0.47's source tree, then one edit per commit that changes only the tree, except commit
 * `--culprit`, which makes every BaseRouter hold each message `--ms` milliseconds (case 1 has two:
 * `path` grows by about 2 × ms). Bisected from the first commit to the last with the command's
 * defaults (paired runs of case 1 at minimal load, 6 pairs a first look, adaptive up to 30 within
 * 10 minutes, `alert-threshold: 2.5%`), GNES built from each probed commit's source on the local
 * engine. Prints every comparison, the culprit found, the comparisons and the wall time, with the
 * load average.
 *
 *   npm run bench:bisect -- [--commits 16] [--culprit 11] [--ms 1]
 */
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { parseArgs } from 'node:util'
import { parseInputs } from '../src/config/inputs'
import { warningsOnly } from '../src/log'
import { bisect } from '../src/pipeline'
import { plannedProbes } from '../src/judge'
import { renderBisectMarkdown } from '../src/report'
import { gnesEdits, slowRouters, touch } from '../__tests__/helpers/gnes-repo'
import { loadAverage } from './machine'

const { values } = parseArgs({
  options: {
    commits: { type: 'string', default: '16' },
    culprit: { type: 'string', default: '11' },
    ms: { type: 'string', default: '1' }
  }
})
const n = Number(values.commits)
const culprit = Number(values.culprit)
if (!(culprit >= 1 && culprit < n)) throw new Error(`--culprit must be 1..${n - 1}`)

async function main(): Promise<void> {
  const edits = Array.from({ length: n - 1 }, (_, k) => {
    const index = k + 1
    return index === culprit
      ? (dir: string) => {
          touch(index)(dir)
          slowRouters(Number(values.ms))(dir)
        }
      : touch(index)
  })
  const repo = await gnesEdits('0.0.47', edits)
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'gnes-bench-bisect-'))
  console.log(
    `bisect over ${n} commits of GNES 0.0.47's source, commit ${culprit} holding every BaseRouter ` +
      `message ${values.ms} ms; case 1, minimal load, paired defaults, 2.5%; ` +
      `a clean search takes ${plannedProbes(n)} comparisons; load average before: ${loadAverage()}`
  )
  const run = await bisect(
    parseInputs({
      baseline: 'paired',
      'gnes-source': repo.dir,
      cases: '1',
      engine: 'local',
      profiles: 'minimal',
      'alert-threshold': '2.5%',
      'out-dir': out
    }),
    { repo: repo.dir, good: repo.commits[0], bad: repo.commits[n - 1] },
    {
      log: {
        ...warningsOnly,
        info: m => {
          if (m.startsWith('comparison ')) console.log(`  ${m} (load ${loadAverage()})`)
        }
      }
    }
  )
  console.log(`\n${renderBisectMarkdown(run)}`)
  const found = run.end.kind === 'culprit' ? run.end.index : null
  console.log(
    `culprit ${found === culprit ? 'found' : `NOT found (${JSON.stringify(run.end)})`}: commit ${found} ` +
      `in ${run.comparisons.length} comparisons, ${(run.seconds / 60).toFixed(1)} min; ` +
      `load average after: ${loadAverage()}`
  )
}

main().catch(err => {
  console.error(err)
  process.exit(1)
})
