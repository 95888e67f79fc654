/**
 * How much of the suite's wall time is its measured requests: the measured runs' stream calls
 * (paced on their schedule, or a burst with every blocking sleep) against everything else
 * (venv check, start-up, readiness, warm-up, client start, dump reads, teardown).
 * Usage: npm run bench:overhead -- [run flags, e.g. --cases 1,2 --docs 100]; default: the standard suite.
 */
import * as os from 'node:os'
import { parseArgs } from 'node:util'
import { profileKey } from '../src/profile/definition'
import { DEFAULTS, parseInputs, type RawInputs } from '../src/config/inputs'
import { runSuite } from '../src/pipeline'

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: Object.fromEntries(Object.keys(DEFAULTS).map(k => [k, { type: 'string' as const }])),
    strict: true
  })
  const inputs = parseInputs({ 'out-dir': 'out/bench-overhead', ...(values as Partial<RawInputs>) })
  const started = process.hrtime.bigint()
  const result = await runSuite(inputs)
  const wall = Number(process.hrtime.bigint() - started) / 1e9

  let inherent = 0
  let measuredOnly = 0
  console.log('\ncase  profile      runs  stream calls (s)  of them measured (s)')
  for (const c of result.cases) {
    const all = c.runs.reduce((a, r) => a + r.clientSeconds, 0)
    const measured = c.runs.filter(r => !r.warmup).reduce((a, r) => a + r.clientSeconds, 0)
    inherent += all
    measuredOnly += measured
    console.log(
      `${c.id.padEnd(4)}  ${profileKey(c.profile).padEnd(11)}  ${String(c.runs.length).padStart(4)}  ` +
        `${all.toFixed(1).padStart(16)}  ${measured.toFixed(1).padStart(20)}`
    )
  }
  console.log(`\nwall time of the suite:                ${wall.toFixed(1)} s`)
  console.log(`stream calls, warm-ups included:       ${inherent.toFixed(1)} s`)
  console.log(`measured requests (published runs):    ${measuredOnly.toFixed(1)} s`)
  console.log(
    `ratio wall / measured requests:        ${(wall / measuredOnly).toFixed(3)} (target <= 1.1; warm-up counted as overhead)`
  )
  console.log(
    `ratio wall / the load's own time:      ${(wall / inherent).toFixed(3)} (the harness against its load generator's sending, warm-ups included)`
  )
  console.log(
    `load average after: ${os
      .loadavg()
      .map(l => l.toFixed(2))
      .join(' ')}`
  )
}

main().catch(err => {
  console.error(err instanceof Error ? err.message : err)
  process.exit(1)
})
