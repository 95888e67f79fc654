import * as fs from 'node:fs'
import * as path from 'node:path'
import type { GnesMeta } from './gnes-meta'
import type { ServiceCommand } from '../topology/commands'
import type { ContainerCommand } from '../topology/containers'
import type { Topology } from '../topology/schema'
import { withDeadline } from './deadline'
import { LogTail } from './log-tail'
import {
  ServiceFailure,
  type Deployment,
  type Engine,
  type EngineKind,
  type ScriptRun,
  type StartOptions
} from './types'

/**
 * The deployment lifecycle, written once for every engine: services start in waves of dependency
 * order, readiness comes from their logs, every instance is watched and the first exit fails the
 * deployment with a ServiceFailure naming it, scripts (the load client) run under a deadline, the
 * route dump is read, and everything is torn down on every path. An engine only supplies a driver
 * that creates, watches, logs and removes its unit (a process, a container, a Swarm service).
 */

/** Past a script's own deadline, how long it may take to start, report and exit. */
const SCRIPT_GRACE_SEC = 30
/** How long a stopped service gets between SIGTERM and SIGKILL, on every engine. */
export const STOP_GRACE_MS = 2000
/** An exited instance's last output may still be in flight; wait this long for it. */
const OUTPUT_DRAIN_MS = 2000
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

/** One running instance of a service: a process, a container, a Swarm task. */
export interface Instance {
  /** `<service>-<replica>`, e.g. Router1-0; also its log file's name. */
  readonly name: string
  readonly service: string
  readonly output: LogTail
  /** Resolves with the reason (e.g. `exited (code 1)`) once it stops, for whatever cause. */
  readonly exited: Promise<string>
  /** The Swarm node it runs on; null where every instance shares one host. */
  readonly node: string | null
  /** Resolves once it serves: its ready log line, or a probe of its port. */
  readonly ready: Promise<void>
}

/** One instance to start: a GNES service's, or a generic service's. */
export type StartCommand = ServiceCommand | ContainerCommand

/** What an engine does for one deployed topology. */
export interface DeploymentDriver {
  /**
   * Every instance's command, grouped by service, the services in waves: the services of a wave
   * start at once, once every earlier wave has started.
   */
  readonly order: StartCommand[][][]
  /** Where the load enters (see Deployment); may be known only once that service started. */
  readonly frontend: { host: string; port: number }
  /** Where the frontend's `--dump_route` file is, for messages. */
  readonly routeDumpName: string
  /** Creates and starts one service's instances (one command per replica), at once where it can. */
  startService(commands: StartCommand[]): Promise<Instance[]>
  /**
   * Runs `script` with `args` to completion, its output into `output`, and resolves with its exit
   * code; kills it as soon as `cancel` rejects. `name` is unique within the deployment.
   */
  runScript(
    name: string,
    script: string,
    args: string[],
    output: LogTail,
    cancel: Promise<never>
  ): Promise<number | null>
  readRouteDump(): Promise<string>
  /**
   * Removes everything this deployment created, including what a failed start left. `urgent`
   * when it never became ready and the engine is shutting down (a signal during the start): its
   * services have nothing to finish, so they need no grace.
   */
  remove(urgent?: boolean): Promise<void>
}

/** What an engine provides to the lifecycle. */
export interface Platform<K extends EngineKind = EngineKind> {
  readonly kind: K
  readonly runId: string
  /** Provisions GNES when `gnes` (a suite of generic topologies needs none). */
  prepare(gnes: boolean): Promise<GnesMeta | null>
  /**
   * Makes the per-deployment resources (ports, a network) and the driver that uses them;
   * `index` counts the engine's deployments, `logDir` is where instance logs go.
   */
  open(topology: Topology, index: number, logDir: string): Promise<DeploymentDriver>
  /** Removes anything of this run still around (e.g. created while shutting down). */
  sweep(): Promise<void>
  /** True for a start failure worth a fresh attempt (the local engine's port race). */
  retryable?(failure: ServiceFailure): boolean
}

async function drainedText(output: LogTail): Promise<string> {
  await withDeadline(output.ended, OUTPUT_DRAIN_MS, () => new Error('drain')).catch(() => undefined)
  return output.text()
}

interface DeployHooks {
  isClosed(): boolean
  /** The driver's remove, run at most once however many paths ask for it. */
  remove(urgent?: boolean): Promise<void>
  onStop(d: Deployment): void
}

async function deploy(
  driver: DeploymentDriver,
  options: StartOptions,
  hooks: DeployHooks
): Promise<Deployment> {
  const instances: Instance[] = []
  let stopping = false
  let stopped: Promise<void> | null = null
  const runs = new Map<string, number>()
  let fail: (err: ServiceFailure) => void = () => undefined
  const failed = new Promise<never>((_, reject) => (fail = reject))
  // Callers race this against their work; an unobserved rejection must not crash the process.
  failed.catch(() => undefined)

  const deployment: Deployment = {
    failed,
    routeDumpName: driver.routeDumpName,
    get frontend() {
      return driver.frontend
    },
    get nodes() {
      const nodes: Record<string, string[]> = {}
      for (const i of instances) if (i.node) (nodes[i.service] ??= []).push(i.node)
      return nodes
    },

    async runScript({ script, args, timeoutSec, ...run }: ScriptRun): Promise<string> {
      const count = (runs.get(run.name) ?? 0) + 1
      runs.set(run.name, count)
      const name = `${run.name}-${count}`
      // Every line stays: a script's report (the load client's JSON lines) may be long.
      const output = new LogTail(path.join(options.logDir, `${name}.log`), undefined, Infinity)
      let cancel: (err: Error) => void = () => undefined
      const cancelled = new Promise<never>((_, reject) => (cancel = reject))
      cancelled.catch(() => undefined)
      const running = driver.runScript(name, script, args, output, cancelled)
      let code: number | null
      try {
        code = await withDeadline(
          Promise.race([running, failed]),
          (timeoutSec + SCRIPT_GRACE_SEC) * 1000,
          () => new ServiceFailure(name, `did not finish within ${timeoutSec} s`, output.text())
        )
      } catch (err) {
        cancel(err as Error)
        await running.catch(() => undefined)
        throw err
      }
      const text = await drainedText(output)
      const tail = text.split('\n').slice(-30).join('\n')
      if (code !== 0) throw new ServiceFailure(name, `failed (exit ${code})`, tail)
      return text
    },

    readRouteDump: () => driver.readRouteDump(),

    stop(): Promise<void> {
      stopping = true
      stopped ??= hooks.remove().finally(() => hooks.onStop(deployment))
      return stopped
    }
  }

  const ready = new Set<string>()
  const watch = (i: Instance): void => {
    void i.ready.then(() => ready.add(i.name))
    void i.exited.then(async reason => {
      if (!stopping) fail(new ServiceFailure(i.name, reason, await drainedText(i.output)))
    })
  }

  // The readiness deadline covers the whole start, creation included: on a slow daemon the first
  // services must not get the time the later ones took to create.
  const order = driver.order
  let expired = false
  const starting = (async () => {
    for (const wave of order) {
      if (expired) return
      if (hooks.isClosed()) throw new Error('engine shut down while starting')
      const started = await Promise.race([settleAll(wave, c => driver.startService(c)), failed])
      instances.push(...started.flat())
      started.flat().forEach(watch)
    }
  })()
  const notReady = (): ServiceFailure => {
    const waiting = instances.filter(i => !ready.has(i.name))
    const unstarted = order.flat(2).filter(c => !instances.some(i => i.name === c.instance))
    return new ServiceFailure(
      [...waiting.map(i => i.name), ...unstarted.map(c => c.instance)].join(', '),
      `did not become ready within ${options.readyTimeoutMs / 1000} s`,
      [
        ...waiting.map(i => `[${i.name}]\n${i.output.text()}`),
        ...unstarted.map(c => `[${c.instance}]\n(not started yet)`)
      ].join('\n')
    )
  }
  try {
    await withDeadline(
      starting.then(() => Promise.race([Promise.all(instances.map(i => i.ready)), failed])),
      options.readyTimeoutMs,
      notReady
    )
  } catch (err) {
    expired = true
    // A start still in flight finishes (or fails) first, so stop() removes what it created.
    await starting.catch(() => undefined)
    await deployment.stop()
    throw err
  }
  return deployment
}

/** The one Engine: the lifecycle above over a platform's driver. */
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
    const driver = await this.platform.open(topology, ++this.count, options.logDir)
    let removal: Promise<void> | null = null
    const hooks: DeployHooks = {
      isClosed: () => this.closed,
      remove: (urgent = false) => (removal ??= driver.remove(urgent)),
      onStop: d => this.live.delete(d)
    }
    // Registered before it is ready, so a shutdown during start-up removes it too, at once.
    const pending = { stop: () => hooks.remove(true) }
    this.live.add(pending)
    let deployment: Deployment
    try {
      deployment = await deploy(driver, options, hooks)
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
