/**
 * Change points on a real history: `--pushes` recording runs of case 1 at minimal load (each a
 * suite of its own, its topology started afresh, real GNES on `--engine`), recorded into a
 * history directory as a push would, Router2 `--slow-by` slower per message (1 ms or 0.5 ms:
 * topologies/examples/case1-router2-<slow-by>.yml, the same case id; 1 ms is 5–11 % of `path`,
 * the metric case 1 is judged by, on the local engine, as the machine runs it) from push
 * `--slow-from` on. Prints per push the figures and the steps it
 * announced, marking those the action alerts on (`alerts`), then the steps of `latency`, `path`
 * and `r2:proc` over the whole series.
 *
 * `--paired` records each push as a workflow with `baseline: paired` and a fixed base would: the
 * push's topology beside case 1 (the base, the same every push) in one job, `--pairs` pairs on
 * one deployment a side (`paired-deploy: once`, the base's build unchanged from push to push), so
 * each entry carries its change against the base and alerts read `path vs base`.
 *
 * `--replay DIR` measures nothing: it reads the history a `--paired` series kept in DIR and
 * announces its steps push by push again, each entry's base named as `pairedBase` names it now
 * (the base of every push was case 1 at the same GNES): the same measured changes, judged by the
 * current code.
 *
 *   npm run bench:push-series -- [--pushes 30] [--slow-from 20] [--slow-by 1ms|0.5ms] [--threshold 2.5%]
 *     [--engine local|docker|auto] [--paired [--pairs 6]] [--keep DIR] [--replay DIR]
 */
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { parseArgs } from 'node:util'
import { parseInputs } from '../src/config/inputs'
import { readHistory, type HistoryEntry } from '../src/history'
import { warningsOnly } from '../src/log'
import { assetPath } from '../src/paths'
import { recordResult, stepsAdded } from '../src/pipeline/record'
import { runSuite } from '../src/pipeline/suite/run-suite'
import { runPairedSuite } from '../src/pipeline/suite/paired'
import { comparePaired, type PairedComparison } from '../src/judge/paired'
import { newestFirst } from '../src/render/format'
import { alertSteps, type StepAlerts } from '../src/judge/alert'
import { resolveCases } from '../src/topology/cases'
import { againstBase, seriesSteps } from '../src/trend/series'
import { cv, loadAverage, mean } from './machine'

const { values } = parseArgs({
  options: {
    pushes: { type: 'string', default: '30' },
    'slow-from': { type: 'string', default: '20' },
    'slow-by': { type: 'string', default: '1ms' },
    threshold: { type: 'string', default: '2.5%' },
    engine: { type: 'string', default: 'local' },
    paired: { type: 'boolean', default: false },
    pairs: { type: 'string', default: '6' },
    keep: { type: 'string' },
    replay: { type: 'string' }
  }
})
const pushes = Number(values.pushes)
const slowFrom = Number(values['slow-from'])
const slowBy = values['slow-by']
if (slowBy !== '1ms' && slowBy !== '0.5ms')
  throw new Error(`--slow-by: 1ms or 0.5ms, not ${slowBy}`)
const dir = values.keep ?? fs.mkdtempSync(path.join(os.tmpdir(), 'gnes-push-series-'))
const topology = (slow: boolean) =>
  slow
    ? assetPath('topologies', 'examples', `case1-router2-${slowBy}.yml`)
    : assetPath('topologies', 'case1.yml')
const pct = (x: number): string => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)} %`
const sha = (i: number) => `${String(i).padStart(4, '0')}${'b'.repeat(36)}`

type Alert = { push: number; at: string; change: number }

/** A push's steps as the action announces them, marking (and collecting) those that alert. */
function announced(push: number, { steps }: StepAlerts, alerts: Alert[]): string {
  const said = steps.map(s => {
    const { alert } = s
    if (alert) alerts.push({ push, at: s.firstAfter.commit.sha!.slice(0, 4), change: s.change })
    return `${alert ? 'ALERT ' : ''}${s.metric} ${pct(s.change)} at ${s.firstAfter.commit.sha!.slice(0, 4)}`
  })
  return said.length ? said.join('; ') : 'no new step'
}

/** The steps of each metric over the whole series (entries oldest first), then the alerts. */
function summary(entries: HistoryEntry[], metrics: string[], alerts: Alert[]): void {
  for (const metric of metrics) {
    const steps = seriesSteps(entries, metric)
    console.log(
      `whole series, ${metric}: ${steps.length ? steps.map(s => `${pct(s.change)} [${pct(s.interval[0])}, ${pct(s.interval[1])}] at push ${Number(s.firstAfter.commit.sha!.slice(0, 4))}`).join('; ') : 'no step'}`
    )
  }
  console.log(
    `alerts: ${alerts.length} (${alerts.map(a => `push ${a.push}: step at push ${Number(a.at)} ${pct(a.change)}`).join('; ') || 'none'}); alerts in the first ${slowFrom - 1} pushes: ${alerts.filter(a => a.push < slowFrom).length}`
  )
}

/** `--replay`: the kept history's steps announced push by push, as the action announces them. */
function replay(from: string): void {
  const alerts: Alert[] = []
  const inputs = parseInputs({ 'alert-threshold': values.threshold! })
  const entries = [...newestFirst(readHistory(from))].reverse().map(e => ({
    ...e,
    ...(e.paired && {
      paired: { ...e.paired, base: `GNES ${e.gnes!.version} · topology case1.yml` }
    })
  }))
  entries.forEach((e, i) => {
    const shown = [entries.slice(0, i + 1).reverse()]
    const steps = stepsAdded(shown, new Set([e.id]), inputs['max-entries'])
    console.log(
      `push ${i + 1}: ${announced(i + 1, alertSteps(steps, inputs['alert-threshold']), alerts)}`
    )
  })
  summary(entries, ['path', againstBase('path'), 'r2:proc'], alerts)
}

async function main(): Promise<void> {
  if (values.replay) return replay(values.replay)
  console.log(
    `${pushes} pushes of case 1 at minimal load (engine ${values.engine}${values.paired ? `, each paired with case 1 in ${values.pairs} pairs on one deployment a side` : ''}), Router2 ${slowBy} slower from push ${slowFrom}; history in ${dir}; load average ${loadAverage()}`
  )
  const alerts: Alert[] = []
  for (let i = 1; i <= pushes; i++) {
    const inputs = parseInputs({
      ...(values.paired
        ? {
            baseline: 'paired',
            topology: topology(i >= slowFrom),
            'baseline-topology': topology(false),
            'paired-deploy': 'once',
            runs: values.pairs!,
            'max-pairs': values.pairs!
          }
        : { cases: topology(i >= slowFrom) }),
      profiles: 'minimal',
      engine: values.engine!,
      'alert-threshold': values.threshold!,
      'out-dir': path.join(dir, 'out')
    })
    const cases = resolveCases(inputs)
    const t0 = Date.now()
    const git = {
      sha: sha(i),
      ref: 'refs/heads/main',
      event: 'push',
      repository: 'acme/gnes',
      runId: String(i),
      message: `push ${i}${i >= slowFrom ? ` (Router2 +${slowBy})` : ''}`,
      serverUrl: null
    }
    let result
    let paired: PairedComparison | undefined
    if (values.paired) {
      const run = await runPairedSuite(inputs, { log: warningsOnly, git })
      result = run.head
      paired = comparePaired(run, { threshold: inputs['alert-threshold'] })
    } else {
      result = await runSuite(inputs, { cases, log: warningsOnly, git })
    }
    const recorded = await recordResult(result, { kind: 'dir', dir }, { inputs, cases, paired })
    const best = result.cases[0].best
    const vsBase = paired?.cases[0].metrics.find(m => m.gating)
    const pairedText = vsBase
      ? `, path vs base ${pct(vsBase.change)} [${pct(vsBase.ci[0])}, ${pct(vsBase.ci[1])}]`
      : ''
    console.log(
      `push ${i}: latency ${(best.latency * 1000).toFixed(2)} ms, path ${(best.path * 1000).toFixed(2)} ms${pairedText}, ` +
        `${((Date.now() - t0) / 1000).toFixed(0)} s; ${announced(i, recorded.alerts, alerts)}; load average ${loadAverage()}`
    )
  }
  const entries = [...newestFirst(readHistory(dir))].reverse()
  for (const metric of ['latency', 'path']) {
    const v = entries.map(e => e.best[metric] * 1000)
    const [before, after] = [v.slice(0, slowFrom - 1), v.slice(slowFrom - 1)]
    console.log(
      `${metric}: first ${before.length} ${Math.min(...before).toFixed(1)}–${Math.max(...before).toFixed(1)} ms (CV ${pct(cv(before))}), the rest's mean ${pct(mean(after) / mean(before) - 1)}`
    )
  }
  if (values.paired) {
    const v = entries.map(e => e.paired!.change.path.change)
    const [before, after] = [v.slice(0, slowFrom - 1), v.slice(slowFrom - 1)]
    const sd = (xs: number[]) => Math.sqrt(mean(xs.map(x => (x - mean(xs)) ** 2)))
    console.log(
      `path vs base: first ${before.length} ${pct(Math.min(...before))}…${pct(Math.max(...before))} (mean ${pct(mean(before))}, SD ${(sd(before) * 100).toFixed(1)} points), the rest's mean ${pct(mean(after))}`
    )
  }
  summary(
    entries,
    ['latency', 'path', 'r2:proc', ...(values.paired ? [againstBase('path')] : [])],
    alerts
  )
}

main().catch(err => {
  console.error(err)
  process.exit(1)
})
