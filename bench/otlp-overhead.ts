/**
 * What tracing costs the chain of five: separate suites of the plain chain (chain5.yml, relay.py,
 * no SDK) and the traced one (chain-otlp.yml, relay_otel.py exporting every request's spans to the
 * receiver), alternated so a drifting machine weighs on both alike. Prints each suite's published
 * latency, the mean and CV per variant, their ratio, the spans received and dropped per traced
 * suite (from its log), and the load average around every suite. Needs scripts/otel-venv.sh on
 * the local engine.
 *
 *   npm run bench:otlp-overhead -- [--suites 5] [--engine local] [run flags…]
 */
import * as path from 'node:path'
import { parseArgs } from 'node:util'
import { DEFAULTS, parseInputs, type RawInputs } from '../src/config/inputs'
import type { Log } from '../src/log'
import { runSuite } from '../src/pipeline'
import { cv, loadAverage, mean } from './machine'

const { values } = parseArgs({
  options: {
    suites: { type: 'string', default: '5' },
    ...Object.fromEntries(Object.keys(DEFAULTS).map(k => [k, { type: 'string' as const }]))
  }
})
const { suites, ...flags } = values
const examples = path.join(__dirname, '..', 'topologies', 'examples', 'http')
const VARIANTS = { plain: 'chain5.yml', traced: 'chain-otlp.yml' } as const

/** Keeps the driver's trace lines (requests traced, spans received and dropped), nothing else. */
function traceLines(into: string[]): Log {
  return {
    info: line => void (line.startsWith('traces:') && into.push(line)),
    warn: line => console.warn(line),
    group: (_name, work) => work()
  }
}

async function main(): Promise<void> {
  const latency: Record<string, number[]> = { plain: [], traced: [] }
  console.log(`${Number(suites)} suites of each variant; load average before: ${loadAverage()}`)
  for (let s = 1; s <= Number(suites); s++) {
    for (const [variant, file] of Object.entries(VARIANTS)) {
      const inputs = parseInputs({
        profiles: 'minimal',
        'out-dir': `out/bench-otlp-overhead/${variant}`,
        ...(flags as Partial<RawInputs>),
        topology: path.join(examples, file)
      })
      const lines: string[] = []
      const result = await runSuite(inputs, { log: traceLines(lines) })
      const c = result.cases[0]
      latency[variant].push(c.best[c.headline])
      console.log(
        `suite ${s} ${variant}: ${c.headline} ${(c.best[c.headline] * 1000).toFixed(3)} ms; ` +
          `load average after ${loadAverage()}${lines.length ? `\n  ${lines[lines.length - 1]}` : ''}`
      )
    }
  }
  for (const [variant, xs] of Object.entries(latency)) {
    console.log(
      `${variant.padEnd(7)} ${(mean(xs) * 1000).toFixed(3)} ms  CV ${(cv(xs) * 100).toFixed(1)} %`
    )
  }
  console.log(`traced / plain: ${(mean(latency.traced) / mean(latency.plain)).toFixed(3)}`)
}

main().catch(err => {
  console.error(err instanceof Error ? err.message : err)
  process.exit(1)
})
