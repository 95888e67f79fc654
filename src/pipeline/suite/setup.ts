import * as path from 'node:path'
import type { Load } from '../../client/load'
import { PAIRED_MAX_RUN_REQUESTS } from '../../client/plan'
import type { Inputs } from '../../config/inputs'
import type { GnesMeta } from '../../engine/gnes-meta'
import { selectEngine } from '../../engine/select'
import { engineSettings } from '../engine-settings'
import type { Engine } from '../../engine/types'
import type { Log } from '../../log'
import { gitMeta, hostMeta } from '../../result/meta'
import {
  RESULT_SCHEMA,
  ResultSchema,
  type CaseResult,
  type GitMeta,
  type Result
} from '../../result/schema'
import type { CaseSpec } from '../../topology/cases'
import type { CaseSettings, PlannedProfile } from './case'
import { keepCpusAwake, NOT_HELD } from './cpus-awake'
import { onInterrupt } from './signals'
import type { ProfileKind } from '../../profile/definition'
import { traitsOf } from '../../profile/traits'
import { DRIVERS } from './drivers'

/**
 * The set-up a single suite and a paired one share: engines chosen, interrupts and CPUs held for
 * the run, the load and case settings from the inputs, and each side's result framed alike.
 */

export interface SuiteOptions {
  log?: Log
  /** A ready engine (the action's, or a test's); otherwise chosen from `inputs.engine`. */
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

/** The suite's engine: the one it was given, or the one `inputs.engine` names. */
export const suiteEngine = (inputs: Inputs, options: SuiteOptions, id: string, log: Log) =>
  options.engine
    ? Promise.resolve(options.engine)
    : selectEngine(engineSettings(inputs, options.keepRunId), id, log)

/**
 * The profiles in the order they run: a sweep last on its deployment (a failed step may leave
 * requests in the topology), each with its load there (./drivers.ts).
 */
function plannedProfiles(inputs: Inputs, load: Load): PlannedProfile[] {
  const last = (kind: ProfileKind) => Number(traitsOf({ kind }).last)
  const order = [...inputs.profiles].sort((a, b) => last(a) - last(b))
  return order.map((kind, i) => ({ kind, load: DRIVERS[kind].load(load, i === 0) }))
}

const loadOf = (inputs: Inputs): Load => ({
  docs: inputs.docs,
  batchSize: inputs['batch-size'],
  docBytes: inputs['doc-bytes'],
  runs: inputs.runs,
  // Paired `auto` sizes each case's runs from its rate: the suite's load says the most they take.
  requests: inputs.requests ?? PAIRED_MAX_RUN_REQUESTS,
  warmupRequests: inputs['warmup-requests']
})

export function caseSettings(inputs: Inputs, load: Load): CaseSettings {
  return {
    profiles: plannedProfiles(inputs, load),
    rates: { 'minimal-rate': inputs['minimal-rate'], rate: inputs.rate },
    sweep: {
      rates: inputs['sweep-rates'],
      stepSeconds: inputs['sweep-step-seconds'],
      maxSteps: inputs['sweep-max-steps'],
      bound: inputs['sweep-max-latency'].bound,
      boundText: inputs['sweep-max-latency'].text
    },
    caseTimeoutSec: inputs['case-timeout'],
    verdictMetric: inputs['verdict-metric'] === 'auto' ? null : inputs['verdict-metric']
  }
}

/** What a suite's cases run with, once its engines are chosen. */
export interface SuiteFrame {
  load: Load
  settings: CaseSettings
  /** Where a case's services and load client write their logs. */
  logDir(caseId: string): string
  /** The validated result of `cases`, run on `engine`, on this host and commit. */
  result(side: {
    id: string
    engine: Engine
    gnes: GnesMeta | null
    cases: CaseResult[]
    git?: GitMeta
  }): Result
}

/**
 * Runs `work` on the suite's engines: an interrupt shuts them down, the CPUs are kept awake while
 * it runs, and whatever happens every engine is shut down after it.
 */
export async function inSuite<T>(
  inputs: Inputs,
  engines: readonly Engine[],
  log: Log,
  work: (frame: SuiteFrame) => Promise<T>
): Promise<T> {
  const shutdown = async (): Promise<void> => {
    await Promise.all(engines.map(e => e.shutdown()))
  }
  const removeHandlers = onInterrupt(shutdown, m => log.warn(m))
  const load = loadOf(inputs)
  const settings = caseSettings(inputs, load)
  const startedAt = new Date().toISOString()
  let awake = NOT_HELD
  try {
    awake = await keepCpusAwake(inputs['keep-cpus-awake'], log)
    return await work({
      load,
      settings,
      logDir: caseId => path.resolve(inputs['out-dir'], 'logs', `case-${caseId}`),
      result: side =>
        ResultSchema.parse({
          schema: RESULT_SCHEMA,
          id: side.id,
          meta: {
            gnes: side.gnes,
            engine: side.engine.kind,
            load,
            host: hostMeta(),
            cpusAwake: awake.held,
            git: side.git ?? gitMeta(),
            startedAt,
            finishedAt: new Date().toISOString()
          },
          cases: side.cases
        })
    })
  } finally {
    removeHandlers()
    await Promise.all([shutdown(), awake.release()])
  }
}
