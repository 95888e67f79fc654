import * as fs from 'node:fs'
import type { EngineKind } from '../config/engines'
import type { GnesMeta } from './gnes-meta'
import type { GnesTopology, Topology } from '../topology/schema'
import { withDeadline } from './deadline'
import type { UsageSnapshot } from './usage'
import { placeTopology, type Placed } from './placed'
import type { Platform } from './platform'
import { notReady, rollout, startWaves, type DeployHooks, type Rollout } from './rollout'
import {
  ServiceFailure,
  type Deployment,
  type Engine,
  type GnesDeployment,
  type StartOptions
} from './types'

/**
 * The deployment lifecycle, written once for every engine: a topology is placed as its plan
 * (./placed.ts), its services start in waves and are awaited and watched (./rollout.ts), and
 * everything is torn down on every path. A platform only supplies the placements that start, watch
 * and remove its units (a process, a container, a Swarm service).
 */

/** How long a stopped service gets between SIGTERM and SIGKILL, on every engine. */
export const STOP_GRACE_MS = 2000
/** Starts that fail in a way the platform calls transient are tried this many times. */
const START_ATTEMPTS = 3

async function deploy(
  placed: Placed,
  options: StartOptions,
  hooks: DeployHooks
): Promise<Deployment> {
  const r = rollout(placed.plan, options, hooks)
  const deployment = deploymentOf(r, placed)
  // The readiness deadline covers the whole start, creation included: on a slow daemon the first
  // services must not get the time the later ones took to create.
  const starting = startWaves(r, placed.placement)
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

/** The deployment the caller gets: its entry, nodes and stop() read the rollout as it goes on. */
function deploymentOf(r: Rollout, placed: Placed): Deployment {
  const { plan, hooks } = r
  let stopped: Promise<void> | null = null
  const base: Deployment = {
    failed: r.failed,
    traces: placed.traces,
    get frontend() {
      if (!r.entry) throw new Error(`${plan.id}: ${plan.entry.service} has not started`)
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
    usage: () => usageOf(r),
    stop(): Promise<void> {
      r.stopping = true
      stopped ??= hooks.remove().finally(() => hooks.onStop(deployment))
      return stopped
    }
  }
  const deployment = placed.deployment(
    base,
    name => r.instances.find(i => i.plan.name === name)?.started
  )
  return deployment
}

/** Every service's counters, its instances read at once; a one-shot job, done by now, is none. */
async function usageOf(r: Rollout): Promise<UsageSnapshot> {
  const running = r.instances.filter(i => i.plan.wait.kind !== 'completed')
  const counters = await Promise.all(running.map(i => i.started.counters()))
  const snapshot: UsageSnapshot = {}
  running.forEach((i, k) => (snapshot[i.plan.service] ??= []).push(counters[k]))
  return snapshot
}

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

  private async startOnce(topology: Topology, options: StartOptions): Promise<Deployment> {
    if (this.closed) throw new Error(`${this.kind} engine: shut down`)
    fs.mkdirSync(options.logDir, { recursive: true })
    const placed = await placeTopology(topology, this.platform, options.logDir, () => ++this.count)
    const { placement, traces } = placed
    let removal: Promise<void> | null = null
    const hooks: DeployHooks = {
      kind: this.kind,
      isClosed: () => this.closed,
      remove: (urgent = false) =>
        (removal ??= Promise.all([placement.remove(urgent), traces?.close()]).then(
          () => undefined
        )),
      onStop: d => this.live.delete(d)
    }
    // Registered before it is ready, so a shutdown during start-up removes it too, at once.
    const pending = { stop: () => hooks.remove(true) }
    this.live.add(pending)
    let deployment: Deployment
    try {
      deployment = await deploy(placed, options, hooks)
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
