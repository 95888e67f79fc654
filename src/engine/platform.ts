import type { GnesMeta } from './gnes-meta'
import type { LogTail } from './log-tail'
import type { InstancePlan, Plan, ServicePlan } from './plan/types'
import type { Addressing } from '../topology/commands'
import type { ContainerAddressing } from '../topology/containers'
import type { GnesTopology, HttpTopology } from '../topology/schema'
import type { EngineKind } from '../config/engines'
import type { ServiceFailure } from './types'
import type { InstanceCounters } from './usage'

/**
 * What a platform (local processes, Docker containers, Swarm services) provides to the lifecycle:
 * where instances reach each other, and one deployment's placement (ports or a network, labels) that
 * starts, watches and removes instances. Plans, readiness, failures and the load's entry are the
 * lifecycle's.
 */

/** One instance as its platform started it. */
export interface Started {
  /** Resolves with the reason (e.g. `exited (code 1)`) once it stops, for whatever cause. */
  readonly exited: Promise<string>
  /** Resolves with its exit code once it stops; null where the platform cannot tell it. */
  readonly exitCode: Promise<number | null>
  /**
   * Resolves once its health check passes (Docker: the engine runs it; Swarm: Swarm reports the
   * task running); rejects with a ServiceFailure once the check makes it unhealthy. Absent where
   * it has no health check (always on the local engine).
   */
  healthy?(): Promise<void>
  /** The Swarm node it runs on; null where every instance shares one host. */
  readonly node: string | null
  /** Where this host reaches it; null where it cannot (a Swarm task on another node). */
  address(): Promise<string | null>
  /** A file inside it ('' while there is none). */
  readFile(file: string): Promise<string>
  /** How messages name that file: a path, or container:path. */
  fileName(file: string): string
  /** Its CPU and memory counters now (./usage.ts); unreadable ones say why. */
  counters(): Promise<InstanceCounters>
}

/** What a placement asks of the lifecycle for each instance of a service it starts. */
export interface StartIo {
  /** The instance's output: its log file, and the tail for messages. */
  output(instance: InstancePlan): LogTail
  /** Takes a started instance on; resolves once it is ready, by its plan's wait strategy. */
  started(instance: InstancePlan, started: Started): Promise<void>
}

/**
 * One deployment placed on a platform (a set of processes, a Docker network, a Swarm overlay): it
 * starts the deployment's services there, runs scripts beside them and removes all it created.
 */
export interface Placement {
  /** Creates and starts one service's instances, at once where it can; resolves once all started. */
  start(service: ServicePlan, io: StartIo): Promise<void>
  /**
   * Runs a Python script beside the topology (where GNES is importable) to completion, its output
   * into `output`, and resolves with its exit code; kills it as soon as `cancel` rejects.
   */
  runScript(
    name: string,
    script: string,
    args: string[],
    output: LogTail,
    cancel: Promise<never>
  ): Promise<number | null>
  /**
   * Removes everything this deployment created, including what a failed start left. `urgent`
   * when it never became ready and the engine is shutting down (a signal during the start): its
   * services have nothing to finish, so they need no grace.
   */
  remove(urgent: boolean): Promise<void>
  /**
   * The host address the trace receiver listens on: one every service of this deployment reaches
   * (its network's gateway on this host; on Swarm, the node address the manager advertises, which
   * tasks on any node reach).
   */
  traceHost(): Promise<string>
}

export interface Platform<K extends EngineKind = EngineKind> {
  readonly kind: K
  readonly runId: string
  /** Provisions GNES when `gnes` (a suite of generic topologies needs none). */
  prepare(gnes: boolean): Promise<GnesMeta | null>
  /** Where a GNES topology's sockets are here; `logDir` is the deployment's. */
  gnesAddressing(topology: GnesTopology, logDir: string): Promise<Addressing>
  /** Where a generic topology's instances serve and how peers name them here. */
  httpAddressing(topology: HttpTopology): Promise<ContainerAddressing>
  /** Makes a deployment's place; `index` counts the engine's deployments. */
  open(plan: Plan, index: number): Promise<Placement>
  /** Removes anything of this run still around (e.g. created while shutting down). */
  sweep(): Promise<void>
  /** True for a start failure worth a fresh attempt (the local engine's port race). */
  retryable?(failure: ServiceFailure): boolean
}
