import type { EngineKind } from '../config/engines'
import type { GnesMeta } from './gnes-meta'
import type { GnesTopology, Topology } from '../topology/schema'
import type { TraceReceiver } from '../traces/receiver'
import type { UsageSnapshot } from './usage'

export interface StartOptions {
  /** Directory for this case's service logs. */
  logDir: string
  /** Give up when the services are not all ready by then. */
  readyTimeoutMs: number
}

/** A Python script run beside a topology: a process on the host, or a container on its network. */
export interface ScriptRun {
  /** Names its log file and its failures, counted per deployment: `client` → client-1. */
  name: string
  /** The script on this host; GNES is importable where it runs. */
  script: string
  args: string[]
  /** The script's own deadline; it is killed some time past it. */
  timeoutSec: number
}

/** One running topology. */
export interface Deployment {
  /** Rejects with a ServiceFailure as soon as any service instance exits. */
  readonly failed: Promise<never>
  /**
   * Where the load enters: for GNES, where a script run by `runScript` reaches the frontend's gRPC
   * port; for a generic topology, where this host reaches the load service's first replica.
   */
  readonly frontend: { host: string; port: number }
  /** The Swarm node of each service's instances, by service name; empty on a single host. */
  readonly nodes: Record<string, string[]>
  /**
   * The OTLP receiver the services export spans to, for a topology with `hops: { otlp }`; closed
   * with the deployment.
   */
  readonly traces: TraceReceiver | null
  /**
   * Every service's CPU and memory counters now, instance by instance (./usage.ts). Services only:
   * the load client and the trace receiver are not among them, nor a one-shot job, done before
   * any load.
   */
  usage(): Promise<UsageSnapshot>
  /** Stops every service of this topology; idempotent. */
  stop(): Promise<void>
}

/** A running GNES topology: the load client runs beside it, and its frontend dumps routes. */
export interface GnesDeployment extends Deployment {
  /**
   * Runs a script to completion and resolves with its output; rejects with a ServiceFailure
   * naming it when it exits non-zero, overruns its deadline, or a service dies meanwhile.
   */
  runScript(run: ScriptRun): Promise<string>
  /** Everything the frontend's `--dump_route` file holds so far. */
  readRouteDump(): Promise<string>
  /** Where that file is, for messages (a path, or container:path). */
  readonly routeDumpName: string
}

/** A place where topologies run: local processes, Docker containers or Swarm services. */
export interface Engine {
  readonly kind: EngineKind
  /** Labels (Docker) or marks (GNES_BENCH_SUITE) everything this engine starts. */
  readonly runId: string
  /**
   * Provisions GNES (cached venv, image) and says which GNES it is; with `gnes` false (only
   * generic topologies to run) provisions nothing and resolves null.
   */
  prepare(gnes?: boolean): Promise<GnesMeta | null>
  /** Starts one topology; resolves when every service is ready. */
  start(topology: GnesTopology, options: StartOptions): Promise<GnesDeployment>
  start(topology: Topology, options: StartOptions): Promise<Deployment>
  /** Stops everything this engine started; safe to call from a signal handler, idempotent. */
  shutdown(): Promise<void>
}

/** A service that died or never became ready; the message names it and shows its last log lines. */
export class ServiceFailure extends Error {
  constructor(
    readonly service: string,
    reason: string,
    readonly logTail: string
  ) {
    super(`service ${service} ${reason}${logTail ? `; last log lines:\n${logTail}` : ''}`)
  }
}
