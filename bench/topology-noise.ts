/**
 * How much do a topology's published figures move between separate suite runs? Any topology,
 * generic ones included: each suite starts it afresh and runs one paced profile (minimal by
 * default); the script prints each suite's published headline and every `hop:*` figure, their
 * coefficient of variation across suites, and the machine's load average around every suite.
 *
 *   npm run bench:topology-noise -- --topology topologies/examples/http/chain5.yml [--suites 5] [--engine local] [run flags…]
 */
import { parseArgs } from 'node:util'
import { DEFAULTS, parseInputs, type RawInputs } from '../src/config/inputs'
import { warningsOnly as quiet } from '../src/log'
import { runSuite } from '../src/pipeline'
import { cv, loadAverage, mean } from './machine'

const { values } = parseArgs({
  options: {
    suites: { type: 'string', default: '5' },
    ...Object.fromEntries(Object.keys(DEFAULTS).map(k => [k, { type: 'string' as const }]))
  }
})
const { suites, ...flags } = values

async function main(): Promise<void> {
  const inputs = parseInputs({
    profiles: 'minimal',
    'out-dir': 'out/bench-topology-noise',
    ...(flags as Partial<RawInputs>)
  })
  console.log(
    `${Number(suites)} separate suites of ${(inputs.topology ?? inputs.cases).join(', ')}, profile ${inputs.profiles[0]}, ` +
      `${inputs.engine} engine, ${inputs.runs} runs of ${inputs.requests}; load average before: ${loadAverage()}`
  )
  const figures = new Map<string, number[]>()
  for (let s = 1; s <= Number(suites); s++) {
    const started = Date.now()
    const result = await runSuite({ ...inputs, profiles: [inputs.profiles[0]] }, { log: quiet })
    const seconds = ((Date.now() - started) / 1000).toFixed(0)
    for (const c of result.cases) {
      const shown = [c.headline, ...c.metrics.filter(m => m.startsWith('hop:'))]
      for (const m of shown) {
        const key = `${c.id} ${m}`
        figures.set(key, [...(figures.get(key) ?? []), c.best[m]])
      }
      console.log(
        `suite ${s} (${seconds} s) case ${c.id}: ` +
          shown.map(m => `${m} ${(c.best[m] * 1000).toFixed(3)} ms`).join(', ') +
          `; load average after ${loadAverage()}`
      )
    }
  }
  console.log('\nacross suites: mean, coefficient of variation (sample sd / mean)')
  for (const [key, xs] of figures) {
    console.log(
      `${key.padEnd(28)} ${(mean(xs) * 1000).toFixed(3).padStart(9)} ms  CV ${(cv(xs) * 100).toFixed(1)} %`
    )
  }
}

main().catch(err => {
  console.error(err instanceof Error ? err.message : err)
  process.exit(1)
})
