/**
 * How much of the suite's wall time is inherent: the client's stream calls (which include every
 * blocking sleep) against everything else (venv check, start-up, readiness, dump reads, teardown).
 * Usage: npm run bench:overhead -- [run flags, e.g. --cases 1,2 --docs 100]; default: the standard suite.
 */
import { parseArgs } from 'node:util'
import { DEFAULTS, parseInputs, type RawInputs } from '../src/config/inputs'
import { runSuite } from '../src/suite/run'

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
  console.log('\ncase  runs  stream-call time (s, includes every blocking sleep)')
  for (const c of result.cases) {
    const request = c.runs.reduce((a, r) => a + r.clientSeconds, 0)
    inherent += request
    measuredOnly += c.runs.filter(r => !r.warmup).reduce((a, r) => a + r.clientSeconds, 0)
    console.log(
      `${c.id.padEnd(4)}  ${String(c.runs.length).padStart(4)}  ${request.toFixed(1).padStart(10)}`
    )
  }
  console.log(`\nwall time of the suite:              ${wall.toFixed(1)} s`)
  console.log(`inherent minimum (all stream calls):  ${inherent.toFixed(1)} s`)
  console.log(
    `ratio wall / inherent:               ${(wall / inherent).toFixed(3)} (target <= 1.3)`
  )
  console.log(
    `ratio wall / published runs only:    ${(wall / measuredOnly).toFixed(3)} (warm-up counted as overhead)`
  )
}

main().catch(err => {
  console.error(err instanceof Error ? err.message : err)
  process.exit(1)
})
