import { randomUUID } from 'node:crypto'
import * as path from 'node:path'
import type { Inputs } from '../../config/inputs'
import { selectEngine } from '../../engine/select'
import { engineSettings } from '../engine-settings'
import type { GnesMeta } from '../../engine/gnes-meta'
import type { Engine } from '../../engine/types'
import { gitMeta, hostMeta } from '../../result/meta'
import {
  RESULT_SCHEMA,
  ResultSchema,
  type CaseResult,
  type GitMeta,
  type Result
} from '../../result/schema'
import type { Load } from '../../client/load'
import { consoleLog, type Log } from '../../log'
import type { CaseSpec } from '../../topology/cases'
import { checkRun } from '../preflight'
import { keepCpusAwake, NOT_HELD } from './cpus-awake'
import { runCase, type CaseSettings, type PlannedProfile } from './case'
import { onInterrupt } from './signals'

/**
 * A sweep runs last on its deployment: a failed step may leave requests in the topology. A
 * burst's warm-up stream serves every profile after it on the topology, so a burst after another
 * profile has none; paced streams and sweep steps each lead in with requests of their own (every
 * StreamCall reconnects).
 */
function plannedProfiles(inputs: Inputs, load: Load): PlannedProfile[] {
  const order = [...inputs.profiles].sort((a, b) => Number(a === 'sweep') - Number(b === 'sweep'))
  return order.map((kind, i) => {
    switch (kind) {
      case 'minimal':
        return { request: { kind, rate: inputs['minimal-rate'] }, load }
      case 'paced':
        return { request: { kind, rate: inputs.rate! }, load }
      case 'burst':
        return { request: { kind }, load: i > 0 ? { ...load, warmupRequests: 0 } : load }
      case 'sweep':
        return { request: { kind }, load }
    }
  })
}

export const loadOf = (inputs: Inputs): Load => ({
  docs: inputs.docs,
  batchSize: inputs['batch-size'],
  docBytes: inputs['doc-bytes'],
  runs: inputs.runs,
  requests: inputs.requests,
  warmupRequests: inputs['warmup-requests']
})

export function caseSettings(inputs: Inputs, load: Load): CaseSettings {
  return {
    profiles: plannedProfiles(inputs, load),
    sweep: {
      rates: inputs['sweep-rates'],
      stepSeconds: inputs['sweep-step-seconds'],
      maxSteps: inputs['sweep-max-steps'],
      bound: inputs['sweep-max-latency'].bound,
      boundText: inputs['sweep-max-latency'].text
    },
    caseTimeoutSec: inputs['case-timeout']
  }
}

/** A finished suite's validated result, on this host and commit. */
export function suiteResult(r: {
  id: string
  gnes: GnesMeta | null
  engine: Engine['kind']
  load: Load
  startedAt: string
  cases: CaseResult[]
  cpusAwake: boolean
  git?: GitMeta
}): Result {
  return ResultSchema.parse({
    schema: RESULT_SCHEMA,
    id: r.id,
    meta: {
      gnes: r.gnes,
      engine: r.engine,
      load: r.load,
      host: hostMeta(),
      cpusAwake: r.cpusAwake,
      git: r.git ?? gitMeta(),
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
  /** The cases `preflight` resolved; otherwise checked and read here. */
  cases?: CaseSpec[]
  /** The commit benchmarked, as the action read its workflow; otherwise read from the environment. */
  git?: GitMeta
  /** Takes the run id of every Docker-based engine the suite makes (EngineSettings' keepRunId). */
  keepRunId?: (runId: string) => void
}

/**
 * Runs every case in `inputs.cases` and returns a validated result. Any failure stops the suite
 * and throws: a partial suite produces no result, so nothing partial reaches the history.
 */
export async function runSuite(inputs: Inputs, options: SuiteOptions = {}): Promise<Result> {
  const log = options.log ?? consoleLog
  // Every input, topology and input file is checked before anything starts.
  const specs = options.cases ?? checkRun(inputs)
  const id = options.suiteId ?? randomUUID()
  const engine =
    options.engine ?? (await selectEngine(engineSettings(inputs, options.keepRunId), id, log))
  const removeHandlers = onInterrupt(
    () => engine.shutdown(),
    m => log.warn(m)
  )
  const load = loadOf(inputs)
  const settings = caseSettings(inputs, load)
  const startedAt = new Date().toISOString()
  const cases: CaseResult[] = []
  let awake = NOT_HELD
  try {
    awake = await keepCpusAwake(inputs['keep-cpus-awake'], log)
    const needsGnes = specs.some(s => s.topology.kind === 'gnes')
    const gnes = await log.group(
      needsGnes
        ? `Provision GNES ${inputs['gnes-version']} (${engine.kind})`
        : `Prepare the ${engine.kind} engine`,
      () => engine.prepare(needsGnes)
    )
    for (const spec of specs) {
      const logDir = path.resolve(inputs['out-dir'], 'logs', `case-${spec.topology.id}`)
      cases.push(
        ...(await log.group(`Case ${spec.topology.id}: ${spec.topology.name}`, () =>
          runCase(engine, spec, settings, logDir, log)
        ))
      )
    }
    return suiteResult({
      id,
      gnes,
      engine: engine.kind,
      load,
      startedAt,
      cases,
      cpusAwake: awake.held,
      git: options.git
    })
  } finally {
    removeHandlers()
    await Promise.all([engine.shutdown(), awake.release()])
  }
}
