/**
 * Does the regression verdict find a 5% slowdown, and stay quiet without one?
 *
 * Each trial runs the blocking-router topology of topologies/examples/ three times with real GNES
 * (local engine): a baseline at 0.100 s, a "PR" at 0.105 s and a "PR" at 0.100 s, then compares
 * both PRs with the baseline as the action does on a pull request. It prints every verdict and
 * the counts. Not a test: it takes minutes and its figures depend on the machine.
 *
 *   npm run bench:regression -- [--trials 10] [--runs 10] [--alert-threshold 2.5%] [--save DIR]
 */
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { parseArgs } from 'node:util'
import { parseInputs } from '../src/config/inputs'
import { entriesFromResult } from '../src/history/from-result'
import { assetPath } from '../src/paths'
import { compareResult, type Comparison } from '../src/judge'
import type { Result } from '../src/result/schema'
import { warningsOnly as quiet } from '../src/log'
import { runSuite } from '../src/pipeline'

const { values } = parseArgs({
  options: {
    trials: { type: 'string', default: '10' },
    runs: { type: 'string', default: '10' },
    docs: { type: 'string', default: '50' },
    'alert-threshold': { type: 'string', default: '2.5%' },
    /** Keep every suite's result JSON here, to study the figures afterwards. */
    save: { type: 'string' }
  }
})
const trials = Number(values.trials)

let saved = 0

async function suite(ms: number): Promise<Result> {
  const inputs = parseInputs({
    topology: assetPath('topologies', 'examples', `blocking-${ms}ms.yml`),
    engine: 'local',
    docs: values.docs!,
    'batch-size': '10',
    'doc-bytes': '1000',
    runs: values.runs!,
    profiles: 'burst',
    'warmup-requests': values.docs!,
    'case-timeout': '300',
    'out-dir': path.join(os.tmpdir(), 'gnes-bench-regression')
  })
  const result = await runSuite(inputs, { log: quiet })
  if (values.save) {
    fs.mkdirSync(values.save, { recursive: true })
    const file = `${String(++saved).padStart(2, '0')}-${ms}ms.json`
    fs.writeFileSync(path.join(values.save, file), JSON.stringify(result))
  }
  return result
}

const threshold = parseInputs({ 'alert-threshold': values['alert-threshold']! })['alert-threshold']

function roundtrip(c: Comparison): string {
  const m = c.cases[0].metrics.find(x => x.metric === 'roundtrip')!
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`
  const ci = m.ci ? `[${pct(m.ci[0])}, ${pct(m.ci[1])}]` : '[untested]'
  return `${pct(m.change).padStart(6)} ${ci.padEnd(17)} p=${m.p?.toFixed(4) ?? '–'} ${m.verdict}`
}

async function main(): Promise<void> {
  const counts = { slower: 0, same: 0, slowerAny: 0, sameAny: 0 }
  console.log(
    `alert-threshold ${values['alert-threshold']}, ${values.docs} docs × 1000 B, batch 10, ` +
      `${values.runs} measured runs + 1 warm-up per suite, ${trials} trials`
  )
  for (let t = 1; t <= trials; t++) {
    const base = await suite(100)
    // Alternate the order, so a machine that slows down during a trial favours neither side.
    let slowerPr: Result
    let samePr: Result
    if (t % 2) {
      slowerPr = await suite(105)
      samePr = await suite(100)
    } else {
      samePr = await suite(100)
      slowerPr = await suite(105)
    }
    const history = entriesFromResult(base)
    const opts = { threshold, baseRef: null, mergeBaseSha: null }
    const slower = compareResult(slowerPr, history, opts)
    const same = compareResult(samePr, history, opts)
    // `regression` is the roundtrip's verdict; "any" also counts diagnostic metrics' regressions.
    const anyFlagged = (c: Comparison) => c.cases[0].metrics.some(m => m.verdict === 'regression')
    counts.slower += Number(slower.regression)
    counts.same += Number(same.regression)
    counts.slowerAny += Number(anyFlagged(slower))
    counts.sameAny += Number(anyFlagged(same))
    console.log(`trial ${String(t).padStart(2)}  0.105 vs 0.100: ${roundtrip(slower)}`)
    console.log(`          0.100 vs 0.100: ${roundtrip(same)}`)
  }
  console.log(`\nregression verdicts (roundtrip, the action's 'regression' output):`)
  console.log(`  0.105 s vs 0.100 s: ${counts.slower}/${trials}`)
  console.log(`  0.100 s vs 0.100 s: ${counts.same}/${trials}`)
  console.log(
    `some metric regressed, diagnostic ones included: ${counts.slowerAny}/${trials} and ${counts.sameAny}/${trials}`
  )
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err))
  process.exitCode = 1
})
