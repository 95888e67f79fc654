import type { ProfileKind } from '../../profile/definition'
import type { RunProfile } from '../../profile/traits'
import type { Deployment, Engine, GnesDeployment, StartOptions } from '../../engine/types'
import type { CaseResult, Load } from '../../result/schema'
import type { CaseSpec } from '../../topology/cases'
import type { HttpTopology, Topology } from '../../topology/schema'
import { DumpCursor } from './dump'
import type { Log } from '../../log'
import { fmtElapsed } from '../../text/duration'
import { runProfile, type ProfileOutcome } from './profile'
import { httpSweepStep, runHttpProfile } from './http-profile'
import { loadDriver } from './load-driver'
import { DRIVERS, type RateInputs } from './drivers'
import { gnesSweepStep, runSweep, type SweepSettings, type SweepStep } from './sweep'

export const READY_TIMEOUT_MS = 120_000

/** A profile to run, and the load it runs at (its own warm-up). */
export interface PlannedProfile {
  kind: ProfileKind
  load: Load
}

export interface CaseSettings {
  /** In the order they run; a sweep is always last (a failed step may leave requests behind). */
  profiles: PlannedProfile[]
  /** What the inputs set of the profiles' rates. */
  rates: RateInputs
  sweep: SweepSettings
  caseTimeoutSec: number
  /** The metric the inputs chose to judge every case by; null: each case's default. */
  verdictMetric: string | null
}

/** Starts one topology, runs every profile through it in turn, and always stops it. */
export async function runCase(
  engine: Engine,
  spec: CaseSpec,
  settings: CaseSettings,
  logDir: string,
  log: Log
): Promise<CaseResult[]> {
  const { topology } = spec
  const deadline = Date.now() + settings.caseTimeoutSec * 1000
  const remaining = (): number => {
    const s = Math.floor((deadline - Date.now()) / 1000)
    if (s <= 0) {
      throw new Error(`case ${topology.id} exceeded case-timeout (${settings.caseTimeoutSec} s)`)
    }
    return s
  }
  const started = Date.now()
  const { dep, run } = await startCase(engine, topology, {
    logDir,
    readyTimeoutMs: READY_TIMEOUT_MS
  })
  log.info(`services ready in ${fmtElapsed((Date.now() - started) / 1000)}; logs in ${logDir}`)
  const minimalRate = topology.minimalRate
  const outcomes: ProfileOutcome[] = []
  try {
    for (const { kind, load } of settings.profiles) {
      const runs = DRIVERS[kind].runs
      outcomes.push(
        runs
          ? await run.profile(runs.profile(settings.rates, minimalRate), load, remaining(), log)
          : await runSweep(dep, run.sweepStep, minimalRate, settings.sweep, load, deadline, log)
      )
    }
  } finally {
    await dep.stop()
  }
  return outcomes.map(o => caseResult(spec, dep, o, settings.verdictMetric))
}

/** A profile's outcome on a case, with the topology's identity and where its services ran. */
export function caseResult(
  spec: CaseSpec,
  dep: Pick<Deployment, 'nodes'>,
  outcome: ProfileOutcome,
  verdictMetric: string | null = null
): CaseResult {
  const { topology } = spec
  // A sweep has no runs to judge by it.
  const chosen = verdictMetric && outcome.runs.length ? { verdictMetric } : {}
  return {
    id: topology.id,
    kind: topology.kind,
    name: topology.name,
    topologyFile: spec.file,
    services: serviceSummaries(topology).map(s => ({
      ...s,
      ...(dep.nodes[s.name] ? { nodes: dep.nodes[s.name] } : {})
    })),
    ...chosen,
    ...outcome
  }
}

/** Each service as a result names it: GNES role and router model, or a container and its image. */
function serviceSummaries(
  topology: Topology
): { name: string; role: 'frontend' | 'router' | 'container'; model: string; replicas: number }[] {
  if (topology.kind === 'http') {
    return topology.services.map(s => ({
      name: s.name,
      role: 'container',
      model: s.image,
      replicas: s.replicas
    }))
  }
  return topology.services.map(s => ({
    name: s.name,
    role: s.role,
    model: s.role === 'frontend' ? 'FrontendService' : s.model,
    replicas: s.role === 'frontend' ? 1 : s.replicas
  }))
}

/** How a case's profiles and sweep steps are measured: GNES's client, or the HTTP driver. */
export interface CaseRunner {
  /** `startAt`: epoch seconds at which a paced profile's schedule starts (default: soon after now). */
  profile(
    profile: RunProfile,
    load: Load,
    timeoutSec: number,
    log: Log,
    startAt?: number
  ): Promise<ProfileOutcome>
  sweepStep: SweepStep
}

/**
 * Starts a topology and makes the runner of its deployment (one per deployment: GNES's reads its
 * route dump in order).
 */
export async function startCase(
  engine: Engine,
  topology: Topology,
  options: StartOptions
): Promise<{ dep: Deployment; run: CaseRunner }> {
  if (topology.kind === 'http') {
    const dep = await engine.start(topology, options)
    return { dep, run: httpRunner(dep, topology) }
  }
  const dep = await engine.start(topology, options)
  return { dep, run: gnesRunner(dep) }
}

function gnesRunner(dep: GnesDeployment): CaseRunner {
  const cursor = new DumpCursor(dep)
  return {
    profile: (profile, load, timeoutSec, log, startAt) =>
      runProfile(dep, cursor, profile, load, timeoutSec, log, startAt),
    sweepStep: gnesSweepStep(dep, cursor)
  }
}

function httpRunner(dep: Deployment, topology: HttpTopology): CaseRunner {
  const open = loadDriver(dep, topology)
  return {
    // The driver's per-request timeout bounds a profile; there is no client process to outlive.
    profile: (profile, load, _timeoutSec, log, startAt) =>
      Promise.race([
        runHttpProfile(
          dep,
          open,
          { source: topology.hops, traces: dep.traces },
          profile,
          load,
          log,
          startAt
        ),
        dep.failed
      ]),
    sweepStep: httpSweepStep(open)
  }
}
