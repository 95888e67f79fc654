import type { Profile } from '../../client/profile'
import type { Deployment, Engine } from '../../engine/types'
import type { CaseResult, Load } from '../../result/schema'
import type { CaseSpec } from '../../topology/cases'
import { DumpCursor } from './dump'
import type { Log } from '../../log'
import { runProfile, type ProfileOutcome } from './profile'
import { runSweep, type SweepSettings } from './sweep'

export const READY_TIMEOUT_MS = 120_000

/** A profile as the inputs ask for it; a minimal one takes the case's rate when it has none. */
type ProfileRequest =
  | { kind: 'burst' }
  | { kind: 'minimal'; rate: number | null }
  | { kind: 'paced'; rate: number }
  | { kind: 'sweep' }

/** A profile to run, and the load it runs at (its own warm-up). */
export interface PlannedProfile {
  request: ProfileRequest
  load: Load
}

export interface CaseSettings {
  /** In the order they run; a sweep is always last (a failed step may leave requests behind). */
  profiles: PlannedProfile[]
  sweep: SweepSettings
  caseTimeoutSec: number
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
  const dep = await engine.start(topology, { logDir, readyTimeoutMs: READY_TIMEOUT_MS })
  log.info(`services ready in ${((Date.now() - started) / 1000).toFixed(1)} s; logs in ${logDir}`)
  const cursor = new DumpCursor(dep)
  const minimalRate = topology.minimalRate
  const outcomes: ProfileOutcome[] = []
  try {
    for (const { request, load } of settings.profiles) {
      if (request.kind === 'sweep') {
        outcomes.push(await runSweep(dep, cursor, minimalRate, settings.sweep, load, deadline, log))
        continue
      }
      const profile: Profile =
        request.kind === 'minimal'
          ? { kind: 'minimal', rate: request.rate ?? minimalRate }
          : request
      outcomes.push(await runProfile(dep, cursor, profile, load, remaining(), log))
    }
  } finally {
    await dep.stop()
  }
  return outcomes.map(o => caseResult(spec, dep, o))
}

/** A profile's outcome on a case, with the topology's identity and where its services ran. */
export function caseResult(
  spec: CaseSpec,
  dep: Pick<Deployment, 'nodes'>,
  outcome: ProfileOutcome
): CaseResult {
  const { topology } = spec
  return {
    id: topology.id,
    name: topology.name,
    topologyFile: spec.file,
    services: topology.services.map(s => ({
      name: s.name,
      role: s.role,
      model: s.role === 'frontend' ? 'FrontendService' : s.model,
      replicas: s.role === 'frontend' ? 1 : s.replicas,
      ...(dep.nodes[s.name] ? { nodes: dep.nodes[s.name] } : {})
    })),
    ...outcome
  }
}
