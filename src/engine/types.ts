import type { ClientPlan, StreamReport } from '../client/load-client'
import type { GnesMeta } from '../result/schema'
import type { Topology } from '../topology/schema'

export interface StartOptions {
  /** Directory for this case's service logs. */
  logDir: string
  /** Give up when the services are not all ready by then. */
  readyTimeoutMs: number
}

/** One running topology. */
export interface Deployment {
  /** Rejects with a ServiceFailure as soon as any service instance exits. */
  readonly failed: Promise<never>
  /** Runs the load client's plan against the frontend, with a deadline on the whole plan. */
  runClient(plan: ClientPlan, timeoutSec: number): Promise<StreamReport[]>
  /** Everything the frontend's `--dump_route` file holds so far. */
  readRouteDump(): Promise<string>
  /** Where that file is, for messages (a path, or container:path). */
  readonly routeDumpName: string
  /** The Swarm node of each service's instances, by service name; empty on a single host. */
  readonly nodes: Record<string, string[]>
  /** Stops every service of this topology; idempotent. */
  stop(): Promise<void>
}

export type EngineKind = 'local' | 'docker' | 'swarm'

/** A place where topologies run: local processes, Docker containers or Swarm services. */
export interface Engine {
  readonly kind: EngineKind
  /** Labels (Docker) or marks (GNES_BENCH_SUITE) everything this engine starts. */
  readonly runId: string
  /** Provisions GNES (cached venv, image) and says which GNES it is. */
  prepare(): Promise<GnesMeta>
  /** Starts one topology; resolves when every service is ready. */
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
