import * as path from 'node:path'
import type { EngineKind } from '../config/engines'
import { drainedText, LogTail } from './log-tail'
import type { InstancePlan, Plan, ServicePlan } from './plan/types'
import type { Placement, Started, StartIo } from './platform'
import { isOneShot, readyLine, waitReady, type Waiting } from './readiness'
import { settleAll } from './settle'
import { ServiceFailure, type Deployment, type StartOptions } from './types'

/**
 * One deployment's start, written once for every engine: its plan's services start in waves, each
 * instance is awaited by its readiness kind (./readiness/) and watched, and the first exit fails
 * the deployment with a ServiceFailure naming it.
 */

export interface DeployHooks {
  kind: EngineKind
  isClosed(): boolean
  /** The placement's remove, run at most once however many paths ask for it. */
  remove(urgent?: boolean): Promise<void>
  onStop(d: Deployment): void
}

/** One started instance, as the lifecycle watches it. */
interface Instance {
  readonly plan: InstancePlan
  readonly started: Started
  readonly output: LogTail
}

/** What the steps of one deployment's start share, and what its watchers and stop() change. */
export interface Rollout {
  readonly plan: Plan
  readonly options: StartOptions
  readonly hooks: DeployHooks
  /** The instances of every wave started so far, in start order. */
  readonly instances: Instance[]
  /** Names of the instances that are ready. */
  readonly ready: Set<string>
  /** Each started service's instances' readiness, which its dependents' conditions wait on. */
  readonly readiness: Map<string, Promise<void>[]>
  /** Rejects with the first instance that exits unasked. */
  readonly failed: Promise<never>
  readonly fail: (err: ServiceFailure) => void
  /** Where the load enters, once known. */
  entry: { host: string; port: number } | null
  /** Set by stop(): an exit after it is no failure. */
  stopping: boolean
  /** Set once the start failed or ran out of time: no later wave starts. */
  expired: boolean
  /** Resolves once `expire()` was called. */
  readonly expiring: Promise<void>
  readonly expire: () => void
}

export function rollout(plan: Plan, options: StartOptions, hooks: DeployHooks): Rollout {
  let fail: (err: ServiceFailure) => void = () => undefined
  const failed = new Promise<never>((_, reject) => (fail = reject))
  // Callers race this against their work; an unobserved rejection must not crash the process.
  failed.catch(() => undefined)
  let expire: () => void = () => undefined
  const expiring = new Promise<void>(resolve => (expire = resolve))
  const { host, port } = plan.entry
  const r: Rollout = {
    plan,
    options,
    hooks,
    instances: [],
    ready: new Set(),
    readiness: new Map(),
    failed,
    fail,
    entry: host === null ? null : { host, port },
    stopping: false,
    expired: false,
    expiring,
    expire: () => {
      r.expired = true
      expire()
    }
  }
  return r
}

/**
 * Starts the plan's waves in order, each once the one before has started, and watches every
 * instance; resolves with each started instance's readiness.
 */
export async function startWaves(r: Rollout, placement: Placement): Promise<Promise<void>[]> {
  const readiness: Promise<void>[] = []
  for (const wave of r.plan.waves) {
    await dependenciesMet(r, wave)
    if (r.expired) return readiness
    if (r.hooks.isClosed()) throw new Error('engine shut down while starting')
    const started: [Instance, Promise<void>][] = []
    const io = waveIo(r, started)
    await Promise.race([settleAll(wave, service => placement.start(service, io)), r.failed])
    for (const [i, isReady] of started) {
      r.instances.push(i)
      readiness.push(isReady)
      const ofService = r.readiness.get(i.plan.service) ?? []
      r.readiness.set(i.plan.service, [...ofService, isReady])
      watch(r, i, isReady)
    }
  }
  return readiness
}

/**
 * Waits until every service of `wave` may start: each dependency with condition `healthy` is
 * ready, each with `completed` exited 0 (that is a one-shot job's readiness); `started` holds
 * already, as every dependency is in an earlier wave. Gives up on the deployment's failure or
 * expiry.
 */
async function dependenciesMet(r: Rollout, wave: readonly ServicePlan[]): Promise<void> {
  const awaited = wave.flatMap(s =>
    s.after.filter(d => d.condition !== 'started').flatMap(d => r.readiness.get(d.service) ?? [])
  )
  if (awaited.length) await Promise.race([Promise.all(awaited), r.failed, r.expiring])
}

/** What a wave's placements ask for: each instance's output, and `started` takes each started one. */
function waveIo(r: Rollout, started: [Instance, Promise<void>][]): StartIo {
  const outputs = new Map<string, LogTail>()
  return {
    output(i) {
      const output = new LogTail(path.join(r.options.logDir, `${i.name}.log`), readyLine(i.wait))
      outputs.set(i.name, output)
      return output
    },
    started(i, s) {
      const output = outputs.get(i.name)!
      // A readiness that cannot be told stays pending: the start's deadline then names it.
      const isReady = instanceReady(r, i, s, output).catch((err: Error) => {
        // Its platform says it will never be ready (unhealthy): the start fails now.
        if (err instanceof ServiceFailure) r.fail(err)
        else output.note(`[${r.hooks.kind}] cannot tell whether it is ready: ${err.message}`)
        return new Promise<void>(() => undefined)
      })
      started.push([{ plan: i, started: s, output }, isReady])
      return isReady
    }
  }
}

/**
 * Resolves once the instance is ready by its wait strategy. Where the plan leaves the load's entry
 * to its instance, the entry is where this host reaches that instance.
 */
async function instanceReady(
  r: Rollout,
  i: InstancePlan,
  s: Started,
  output: LogTail
): Promise<void> {
  let address: Promise<string | null> | undefined
  const at: Waiting = {
    instance: i,
    started: s,
    output,
    engine: r.hooks.kind,
    address: () => (address ??= s.address())
  }
  const { entry } = r.plan
  if (entry.host === null && entry.service === i.service && i.replica === 0) {
    const host = await at.address()
    if (!host) throw new Error(`${i.name}: no address where this host reaches it`)
    r.entry = { host, port: entry.port }
  }
  return waitReady(i.wait, at)
}

/** Marks the instance ready once it is, and fails the deployment when it exits unasked. */
function watch(r: Rollout, i: Instance, isReady: Promise<void>): void {
  void isReady.then(() => r.ready.add(i.plan.name))
  void i.started.exited.then(async reason => {
    if (r.stopping) return
    // A one-shot job that ran to exit 0 did what it is for.
    if (isOneShot(i.plan.wait) && (await i.started.exitCode) === 0) return
    r.fail(new ServiceFailure(i.plan.name, reason, await drainedText(i.output)))
  })
}

/** The failure of a start that ran out of time: who is not ready or not started, and their logs. */
export function notReady(r: Rollout): ServiceFailure {
  const waiting = r.instances.filter(i => !r.ready.has(i.plan.name))
  const unstarted = r.plan.waves
    .flat()
    .flatMap(s => s.instances)
    .filter(c => !r.instances.some(i => i.plan.name === c.name))
  return new ServiceFailure(
    [...waiting.map(i => i.plan.name), ...unstarted.map(c => c.name)].join(', '),
    `did not become ready within ${r.options.readyTimeoutMs / 1000} s`,
    [
      ...waiting.map(i => `[${i.plan.name}]\n${i.output.text()}`),
      ...unstarted.map(c => `[${c.name}]\n(not started yet)`)
    ].join('\n')
  )
}
