import * as fs from 'node:fs'
import * as path from 'node:path'
import type { EngineKind } from '../config/engines'
import type { GnesMeta } from './gnes-meta'
import type { ContainerAddressing } from '../topology/containers'
import { fromTraces } from '../topology/http-schema'
import type { GnesTopology, Topology } from '../topology/schema'
import { startTraceReceiver, type TraceReceiver } from '../traces/receiver'
import { withDeadline } from './deadline'
import { drainedText, LogTail } from './log-tail'
import { gnesDeployment } from './gnes-deployment'
import { gnesPlan } from './plan/gnes'
import { httpPlan } from './plan/http'
import type { HttpPlan, InstancePlan, Plan, ServicePlan } from './plan/types'
import type { Platform, Placement, Started, StartIo } from './platform'
import { isOneShot, readyLine, waitReady, type Waiting } from './readiness'
import {
  ServiceFailure,
  type Deployment,
  type Engine,
  type GnesDeployment,
  type StartOptions
} from './types'

/**
 * The deployment lifecycle, written once for every engine: a topology compiles to its plan,
 * services start in its waves, each instance is awaited by its readiness kind (./readiness/),
 * every instance is watched and the first exit fails the deployment with a
 * ServiceFailure naming it, and everything is torn down on every path; a GNES deployment also runs
 * scripts (the load client) under a deadline and reads the route dump. A platform only supplies
 * the placements that start, watch and remove its units (a process, a container, a Swarm service).
 */

/** How long a stopped service gets between SIGTERM and SIGKILL, on every engine. */
export const STOP_GRACE_MS = 2000
/** Starts that fail in a way the platform calls transient are tried this many times. */
const START_ATTEMPTS = 3

/**
 * Runs `start` on every item at once and waits for all of them, failed or not, before it rejects
 * with the first failure: a teardown after it then finds everything that was created.
 */
export async function settleAll<T, R>(
  items: readonly T[],
  start: (item: T) => Promise<R>
): Promise<R[]> {
  const settled = await Promise.allSettled(items.map(start))
  const failure = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected')
  if (failure) throw failure.reason
  return settled.map(s => (s as PromiseFulfilledResult<R>).value)
}

interface DeployHooks {
  kind: EngineKind
  isClosed(): boolean
  /** The placement's remove, run at most once however many paths ask for it. */
  remove(urgent?: boolean): Promise<void>
  onStop(d: Deployment): void
  traces: TraceReceiver | null
}

/** One started instance, as the lifecycle watches it. */
interface Instance {
  readonly plan: InstancePlan
  readonly started: Started
  readonly output: LogTail
}

/** What the steps of one deployment's start share, and what its watchers and stop() change. */
interface Rollout {
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

async function deploy(
  plan: Plan,
  placement: Placement,
  options: StartOptions,
  hooks: DeployHooks
): Promise<Deployment> {
  const r = rollout(plan, options, hooks)
  const deployment = deploymentOf(r, placement)
  // The readiness deadline covers the whole start, creation included: on a slow daemon the first
  // services must not get the time the later ones took to create.
  const starting = startWaves(r, placement)
  try {
    await withDeadline(
      starting.then(readiness => Promise.race([Promise.all(readiness), r.failed])),
      options.readyTimeoutMs,
      () => notReady(r)
    )
  } catch (err) {
    r.expire()
    // A start still in flight finishes (or fails) first, so stop() removes what it created.
    await starting.catch(() => undefined)
    await deployment.stop()
    throw err
  }
  return deployment
}

/** A GNES plan's entry is an address; a generic plan's is an instance, reached once it started. */
const entryService = (plan: Plan): HttpPlan['entry'] | null =>
  plan.kind === 'http' ? plan.entry : null

function rollout(plan: Plan, options: StartOptions, hooks: DeployHooks): Rollout {
  let fail: (err: ServiceFailure) => void = () => undefined
  const failed = new Promise<never>((_, reject) => (fail = reject))
  // Callers race this against their work; an unobserved rejection must not crash the process.
  failed.catch(() => undefined)
  let expire: () => void = () => undefined
  const expiring = new Promise<void>(resolve => (expire = resolve))
  const r: Rollout = {
    plan,
    options,
    hooks,
    instances: [],
    ready: new Set(),
    readiness: new Map(),
    failed,
    fail,
    entry: plan.kind === 'gnes' ? plan.entry : null,
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

/** The deployment the caller gets: its entry, nodes and stop() read the rollout as it goes on. */
function deploymentOf(r: Rollout, placement: Placement): Deployment {
  const { plan, hooks } = r
  let stopped: Promise<void> | null = null
  const base: Deployment = {
    failed: r.failed,
    traces: hooks.traces,
    get frontend() {
      if (!r.entry) throw new Error(`${plan.id}: ${entryService(plan)?.service} has not started`)
      return r.entry
    },
    get nodes() {
      const nodes: Record<string, string[]> = {}
      for (const i of r.instances) {
        const node = i.started.node
        if (node) (nodes[i.plan.service] ??= []).push(node)
      }
      return nodes
    },
    stop(): Promise<void> {
      r.stopping = true
      stopped ??= hooks.remove().finally(() => hooks.onStop(deployment))
      return stopped
    }
  }
  const deployment =
    plan.kind === 'gnes'
      ? gnesDeployment(
          base,
          plan,
          placement,
          r.options.logDir,
          () => r.instances.find(i => i.plan.name === plan.routeDump.instance)?.started
        )
      : base
  return deployment
}

/**
 * Starts the plan's waves in order, each once the one before has started, and watches every
 * instance; resolves with each started instance's readiness.
 */
async function startWaves(r: Rollout, placement: Placement): Promise<Promise<void>[]> {
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
 * Resolves once the instance is ready by its wait strategy. The load's entry is where this host
 * reaches it too.
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
  const entry = entryService(r.plan)
  if (entry?.service === i.service && i.replica === 0) {
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
function notReady(r: Rollout): ServiceFailure {
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

const withTraces = (a: ContainerAddressing, traces: TraceReceiver): ContainerAddressing => ({
  ...a,
  otlp: { http: traces.httpEndpoint, grpc: traces.grpcEndpoint }
})

/** The one Engine: the lifecycle above over a platform's placements. */
export class LifecycleEngine<K extends EngineKind = EngineKind> implements Engine {
  private closed = false
  private shutdownDone: Promise<void> | null = null
  private count = 0
  /** Deployments to stop at shutdown, those still starting included. */
  private readonly live = new Set<{ stop(): Promise<void> }>()

  constructor(
    private readonly platform: Platform<K>,
    private readonly log: (line: string) => void
  ) {}

  get kind(): K {
    return this.platform.kind
  }

  get runId(): string {
    return this.platform.runId
  }

  prepare(gnes = true): Promise<GnesMeta | null> {
    return this.platform.prepare(gnes)
  }

  start(topology: GnesTopology, options: StartOptions): Promise<GnesDeployment>
  start(topology: Topology, options: StartOptions): Promise<Deployment>
  async start(topology: Topology, options: StartOptions): Promise<Deployment> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.startOnce(topology, options)
      } catch (err) {
        const again = err instanceof ServiceFailure && this.platform.retryable?.(err)
        if (!again || attempt === START_ATTEMPTS) throw err
        this.log(`${err.message.split('\n')[0]}; starting again`)
      }
    }
  }

  /**
   * The topology's plan, its addresses the platform's, and its placement. A topology with `hops: {
   * otlp }` gets its trace receiver on the placement's trace host, which exists only once the placement
   * does (a network's gateway), so its plan is made again with the receiver's endpoints.
   */
  private async place(
    topology: Topology,
    logDir: string
  ): Promise<{ plan: Plan; placement: Placement; traces: TraceReceiver | null }> {
    if (topology.kind === 'gnes') {
      const plan = gnesPlan(topology, await this.platform.gnesAddressing(topology, logDir))
      return { plan, placement: await this.platform.open(plan, ++this.count), traces: null }
    }
    const addressing = await this.platform.httpAddressing(topology)
    const plan = httpPlan(topology, addressing)
    const placement = await this.platform.open(plan, ++this.count)
    if (!fromTraces(topology.hops)) return { plan, placement, traces: null }
    try {
      const traces = await startTraceReceiver(await placement.traceHost())
      return { plan: httpPlan(topology, withTraces(addressing, traces)), placement, traces }
    } catch (err) {
      await placement.remove(true)
      throw err
    }
  }

  private async startOnce(topology: Topology, options: StartOptions): Promise<Deployment> {
    if (this.closed) throw new Error(`${this.kind} engine: shut down`)
    fs.mkdirSync(options.logDir, { recursive: true })
    const { plan, placement, traces } = await this.place(topology, options.logDir)
    let removal: Promise<void> | null = null
    const hooks: DeployHooks = {
      kind: this.kind,
      isClosed: () => this.closed,
      remove: (urgent = false) =>
        (removal ??= Promise.all([placement.remove(urgent), traces?.close()]).then(
          () => undefined
        )),
      onStop: d => this.live.delete(d),
      traces
    }
    // Registered before it is ready, so a shutdown during start-up removes it too, at once.
    const pending = { stop: () => hooks.remove(true) }
    this.live.add(pending)
    let deployment: Deployment
    try {
      deployment = await deploy(plan, placement, options, hooks)
    } finally {
      this.live.delete(pending)
    }
    this.live.add(deployment)
    return deployment
  }

  /** Stops every deployment and sweeps the run; safe from a signal handler, idempotent. */
  shutdown(): Promise<void> {
    this.closed = true
    this.shutdownDone ??= (async () => {
      await Promise.allSettled([...this.live].map(d => d.stop()))
      await this.platform.sweep().catch(() => undefined)
    })()
    return this.shutdownDone
  }
}
