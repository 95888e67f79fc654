/**
 * Does a paired pull request of the default cases, changing nothing, stay quiet, and in what time?
 * Each trial is what `run --baseline paired --baseline-gnes-version 0.0.47` does at the defaults
 * otherwise (the cases and profiles of a pull request, `alert-threshold: auto`, one
 * `paired-budget-minutes` for the whole run): identical copies of real GNES 0.0.47 on the local
 * engine, or on `--engine docker` (the image the defaults build). It prints, per case, the answer, the verdict metric's change and interval, the pairs and
 * why they stopped, and the diagnostic rows shown as moved after Holm's adjustment; per trial the
 * rows shown as a change (a verdict of regression or improvement, or a diagnostic shown as moved:
 * the goal is none) and the whole run's wall time, with the load average.
 *
 *   npm run bench:pull-request -- [--trials 10] [--alert-threshold auto] [--engine local|docker]
 *                                 [--save DIR]
 */
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { parseArgs } from 'node:util'
import { parseInputs, type RawInputs } from '../src/config/inputs'
import { warningsOnly } from '../src/log'
import { comparePaired } from '../src/judge/paired'
import type { Verdict } from '../src/judge/verdict'
import { runPairedSuite } from '../src/pipeline/suite/paired'
import { loadAverage, signedPct } from './machine'

const { values } = parseArgs({
  options: {
    trials: { type: 'string', default: '10' },
    'alert-threshold': { type: 'string', default: 'auto' },
    engine: { type: 'string', default: 'local' },
    /** Keep every paired run here. */
    save: { type: 'string' }
  }
})
const trials = Number(values.trials)
const out = path.join(os.tmpdir(), 'gnes-bench-pull-request')

async function main(): Promise<void> {
  const inputs = parseInputs({
    baseline: 'paired',
    'baseline-gnes-version': '0.0.47',
    engine: values.engine!,
    'alert-threshold': values['alert-threshold']!,
    'out-dir': out
  } satisfies Partial<RawInputs>)
  console.log(
    `paired pull requests of identical copies (GNES 0.0.47 beside itself, ${values.engine} engine), ` +
      `${trials} trials at the defaults, alert-threshold ${values['alert-threshold']} ` +
      `(${(inputs['alert-threshold'] * 100).toFixed(1)} %); load average before: ${loadAverage()}`
  )
  const answers: Record<Verdict, number> = {
    regression: 0,
    improvement: 0,
    'no-change': 0,
    inconclusive: 0
  }
  const minutes: number[] = []
  let rowsShown = 0
  let rowsAll = 0
  for (let t = 1; t <= trials; t++) {
    const t0 = Date.now()
    const run = await runPairedSuite(inputs, { log: warningsOnly })
    const wall = (Date.now() - t0) / 60_000
    minutes.push(wall)
    if (values.save) {
      fs.mkdirSync(values.save, { recursive: true })
      fs.writeFileSync(
        path.join(values.save, `${String(t).padStart(2, '0')}.json`),
        JSON.stringify(run)
      )
    }
    const c = comparePaired(run, { threshold: inputs['alert-threshold'] })
    const lines: string[] = []
    let shown = 0
    for (const k of c.cases) {
      const m = k.metrics.find(x => x.gating)!
      answers[m.verdict]++
      const moved = k.metrics.filter(x => !x.gating && x.evidence !== null)
      const changed = m.verdict === 'regression' || m.verdict === 'improvement' ? 1 : 0
      shown += changed + moved.length
      rowsAll += k.metrics.length
      lines.push(
        `  case ${k.caseId} ${k.profile}: ${m.verdict.padEnd(12)} ${m.metric} ${signedPct(m.change)} ` +
          `[${signedPct(m.ci[0])}, ${signedPct(m.ci[1])}], ${k.sequence.pairs} pairs (${k.sequence.stop}); ` +
          `${k.metrics.length - 1} diagnostics, shown as moved: ` +
          `${moved.length ? moved.map(x => `${x.metric} ${signedPct(x.change)} (p ${x.adjustedP?.toPrecision(2)})`).join(', ') : 'none'}` +
          `${k.setAside.length ? `; set aside pair ${k.setAside.map(i => i + 1).join(', ')}` : ''}`
      )
    }
    rowsShown += shown
    console.log(
      `trial ${String(t).padStart(2)}: ${wall.toFixed(1)} min, rows shown as a change ${shown}; ` +
        `load ${loadAverage()}\n${lines.join('\n')}`
    )
  }
  console.log(
    `\nover ${trials} pull requests: answers ${Object.entries(answers)
      .map(([v, n]) => `${v} ${n}`)
      .join(', ')}; rows shown as a change ${rowsShown} of ${rowsAll}; ` +
      `wall time ${Math.min(...minutes).toFixed(1)}–${Math.max(...minutes).toFixed(1)} min; ` +
      `load average after: ${loadAverage()}`
  )
}

main().catch(err => {
  console.error(err)
  process.exit(1)
})
