import { randomUUID } from 'node:crypto'
import * as path from 'node:path'
import type { Inputs } from '../config/inputs'
import { checkRun } from '../config/preflight'
import { selectEngine } from '../engine/select'
import type { Engine } from '../engine/types'
import { gitMeta, hostMeta } from '../result/meta'
import {
  RESULT_SCHEMA,
  ResultSchema,
  type CaseResult,
  type GnesMeta,
  type Load,
  type Result
} from '../result/schema'
import { runCase, type CaseSettings, type ProfileRequest } from './case'
import { consoleLog, type Log } from '../log'
import { onInterrupt } from './signals'
import { parseLatencyBound } from '../metrics/sweep'

/** A sweep runs last on its deployment: a failed step may leave requests in the topology. */
function profileRequests(inputs: Inputs): ProfileRequest[] {
  const order = [...inputs.profiles].sort((a, b) => Number(a === 'sweep') - Number(b === 'sweep'))
  return order.map(kind => {
    switch (kind) {
      case 'minimal':
        return { kind, rate: inputs['minimal-rate'] }
      case 'paced':
        return { kind, rate: inputs.rate! }
      default:
        return { kind }
    }
  })
}

export function caseSettings(inputs: Inputs): CaseSettings {
  return {
    load: {
      docs: inputs.docs,
      batchSize: inputs['batch-size'],
      docBytes: inputs['doc-bytes'],
      runs: inputs.runs,
      requests: inputs.requests,
      warmupRequests: inputs['warmup-requests']
    },
    profiles: profileRequests(inputs),
    sweep: {
      rates: inputs['sweep-rates'],
      stepSeconds: inputs['sweep-step-seconds'],
      maxSteps: inputs['sweep-max-steps'],
      bound: parseLatencyBound(inputs['sweep-max-latency'])!,
      boundText: inputs['sweep-max-latency']
    },
    caseTimeoutSec: inputs['case-timeout']
  }
}

/** A finished suite's validated result, on this host and commit. */
export function suiteResult(r: {
  id: string
  gnes: GnesMeta
  engine: Engine['kind']
  load: Load
  startedAt: string
  cases: CaseResult[]
}): Result {
  return ResultSchema.parse({
    schema: RESULT_SCHEMA,
    id: r.id,
    meta: {
      gnes: r.gnes,
      engine: r.engine,
      load: r.load,
      host: hostMeta(),
      git: gitMeta(),
      startedAt: r.startedAt,
      finishedAt: new Date().toISOString()
    },
    cases: r.cases
  })
}

export interface SuiteOptions {
  log?: Log
  /** A ready engine (tests); otherwise chosen from `inputs.engine`. */
  engine?: Engine
  /** The result's id, also used to label every process/container of the suite. */
  suiteId?: string
}

/**
 * Runs every case in `inputs.cases` and returns a validated result. Any failure stops the suite
 * and throws: a partial suite produces no result, so nothing partial reaches the history.
 */
export async function runSuite(inputs: Inputs, options: SuiteOptions = {}): Promise<Result> {
  const log = options.log ?? consoleLog
  // Every input, topology and input file is checked before anything starts.
  const specs = checkRun(inputs)
  const id = options.suiteId ?? randomUUID()
  const engine = options.engine ?? (await selectEngine(inputs, id, log))
  const removeHandlers = onInterrupt(
    () => engine.shutdown(),
    m => log.warn(m)
  )
  const settings = caseSettings(inputs)
  const startedAt = new Date().toISOString()
  const cases: CaseResult[] = []
  try {
    const gnes = await log.group(`Provision GNES ${inputs['gnes-version']} (${engine.kind})`, () =>
      engine.prepare()
    )
    for (const spec of specs) {
      const logDir = path.resolve(inputs['out-dir'], 'logs', `case-${spec.topology.id}`)
      cases.push(
        ...(await log.group(`Case ${spec.topology.id}: ${spec.topology.name}`, () =>
          runCase(engine, spec, settings, logDir, log)
        ))
      )
    }
    return suiteResult({ id, gnes, engine: engine.kind, load: settings.load, startedAt, cases })
  } finally {
    removeHandlers()
    await engine.shutdown()
  }
}
