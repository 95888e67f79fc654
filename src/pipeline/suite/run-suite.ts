import { randomUUID } from 'node:crypto'
import type { Inputs } from '../../config/inputs'
import type { Result, CaseResult } from '../../result/schema'
import { consoleLog } from '../../log'
import { fmtDuration } from '../../text/duration'
import { checkRun } from '../preflight'
import { runCase } from './case'
import { inSuite, suiteEngine, type SuiteOptions } from './setup'

/**
 * Runs every case in `inputs.cases` and returns a validated result. Any failure stops the suite
 * and throws: a partial suite produces no result, so nothing partial reaches the history.
 */
export async function runSuite(inputs: Inputs, options: SuiteOptions = {}): Promise<Result> {
  const log = options.log ?? consoleLog
  // Every input, topology and input file is checked before anything starts.
  const specs = options.cases ?? checkRun(inputs)
  const id = options.suiteId ?? randomUUID()
  const engine = await suiteEngine(inputs, options, id, log)
  return inSuite(inputs, [engine], log, async ({ settings, logDir, result }) => {
    const needsGnes = specs.some(s => s.topology.kind === 'gnes')
    const gnes = await log.group(
      needsGnes
        ? `Provision GNES ${inputs['gnes-version']} (${engine.kind})`
        : `Prepare the ${engine.kind} engine`,
      () => engine.prepare(needsGnes)
    )
    const cases: CaseResult[] = []
    const t0 = Date.now()
    for (const [k, spec] of specs.entries()) {
      cases.push(
        ...(await log.group(`Case ${spec.topology.id}: ${spec.topology.name}`, () =>
          runCase(engine, spec, settings, logDir(spec.topology.id), log)
        ))
      )
      const left = specs.length - k - 1
      if (left) {
        // The pace of the cases so far: cases differ (a blocking router's take seconds a
        // request), so this is a rough guide, and says so.
        const perCase = (Date.now() - t0) / 1000 / (k + 1)
        log.info(
          `${k + 1} of ${specs.length} cases done in ${fmtDuration((Date.now() - t0) / 1000)}; ` +
            `roughly ${fmtDuration(perCase * left)} left at this pace`
        )
      }
    }
    return result({ id, engine, gnes, cases, git: options.git })
  })
}
