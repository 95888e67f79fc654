/**
 * Does the rate sweep find the same maximum throughput twice? Runs the sweep profile on each case
 * in two separate suites (fresh topologies) at the standard document size and prints every step,
 * both maxima, their difference and the load average, and draws the last suite's throughput–latency
 * curves of every case in one chart (`<out-dir>/sweep-cases.svg`): where each bends is where it saturates.
 *
 *   npm run bench:sweep -- [--cases 1,3] [--repeats 2] [run flags, e.g. --sweep-rates 5,10,20]
 */
import { parseArgs } from 'node:util'
import { DEFAULTS, parseInputs, type RawInputs } from '../src/config/inputs'
import { warningsOnly as quiet } from '../src/log'
import { runSuite } from '../src/pipeline'
import { loadAverage } from './machine'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { loadChartTemplates, renderSvg, withData } from '../src/render/charts'
import type { CaseResult } from '../src/result/schema'

const { values } = parseArgs({
  options: {
    repeats: { type: 'string', default: '2' },
    ...Object.fromEntries(Object.keys(DEFAULTS).map(k => [k, { type: 'string' as const }]))
  }
})
const { repeats, ...flags } = values

async function main(): Promise<void> {
  const inputs = parseInputs({
    cases: '1,3',
    profiles: 'sweep',
    'out-dir': 'out/bench-sweep',
    ...(flags as Partial<RawInputs>)
  })
  const maxima = new Map<string, (number | null)[]>()
  let last: CaseResult[] = []
  for (let k = 1; k <= Number(repeats); k++) {
    const before = loadAverage()
    const started = Date.now()
    const result = await runSuite(inputs, { log: quiet })
    console.log(
      `\nsuite ${k} (${((Date.now() - started) / 1000).toFixed(0)} s; load average before ${before}, after ${loadAverage()})`
    )
    last = result.cases
    for (const c of result.cases) {
      const sweep = c.sweep!
      console.log(`case ${c.id}: offered → achieved req/s, p50 / p99 ms, sustained`)
      for (const p of sweep.points) {
        console.log(
          `  ${p.offered.toFixed(2).padStart(7)} → ${p.achieved.toFixed(2).padStart(7)}  ` +
            `${(p.latency.p50 * 1000).toFixed(1).padStart(7)} / ${(p.latency.p99 * 1000).toFixed(1).padStart(7)}  ${p.sustained ? 'yes' : 'no'}`
        )
      }
      console.log(
        `  maximum sustainable throughput: ${sweep.maxThroughput?.toFixed(2) ?? 'none'} req/s (p99 bound ${(sweep.maxP99 * 1000).toFixed(1)} ms)`
      )
      maxima.set(c.id, [...(maxima.get(c.id) ?? []), sweep.maxThroughput])
    }
  }
  // One chart of every case's curves from the last suite: where each one bends is where it saturates.
  const chart = path.join(inputs['out-dir'], 'sweep-cases.svg')
  const spec = withData(
    loadChartTemplates().sweep,
    {
      title: 'Throughput–latency by case',
      subtitle:
        'p50 solid, p99 dashed, by offered rate: where a curve turns up and back, that case saturates'
    },
    last.flatMap((c, i) =>
      c.sweep!.points.flatMap(p =>
        (['p50', 'p99'] as const).map(percentile => ({
          entry: c.id,
          version: c.name,
          order: last.length - i,
          offered: p.offered,
          achieved: p.achieved,
          percentile,
          latency: Math.max(p.latency[percentile] * 1000, 0.01),
          errors: p.errors,
          sustained: p.sustained ? 'yes' : 'no'
        }))
      )
    )
  )
  fs.mkdirSync(inputs['out-dir'], { recursive: true })
  fs.writeFileSync(chart, await renderSvg(spec))
  console.log(`\nthroughput–latency of every case in one chart: ${chart}`)
  console.log('\nmaximum sustainable throughput per suite:')
  for (const [id, xs] of maxima) {
    const found = xs.filter((x): x is number => x !== null)
    const spread =
      found.length === xs.length ? (Math.max(...found) / Math.min(...found) - 1) * 100 : NaN
    console.log(
      `case ${id}: ${xs.map(x => x?.toFixed(2) ?? 'none').join(', ')} req/s; max/min − 1 = ${spread.toFixed(1)} %`
    )
  }
}

main().catch(err => {
  console.error(err instanceof Error ? err.message : err)
  process.exit(1)
})
