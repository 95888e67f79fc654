import type { Dependency } from '../../topology/depends'
import type {
  ContainerService,
  ContainerSettings,
  Healthcheck,
  Mount
} from '../../topology/http-schema'

/**
 * How an instance tells it is ready, one kind each (engine/readiness/ awaits every kind): a line of
 * its log, a 2xx on an HTTP path, an open port, its health check passing, running at all, or (a
 * one-shot job) exit 0.
 */
export type WaitStrategy =
  | { kind: 'log'; line: RegExp }
  | { kind: 'http'; path: string }
  | { kind: 'port' }
  | { kind: 'healthcheck' }
  | { kind: 'running' }
  | { kind: 'completed' }

export type ReadinessKind = WaitStrategy['kind']

/** One instance to start: a process, a container, a Swarm task. */
export interface InstancePlan {
  /** `<service>-<replica>`, e.g. Router1-0; also its log file's name. */
  name: string
  service: string
  replica: number
  /** Its arguments: to `gnes`, or its service's own command; null runs the image's own command. */
  argv: string[] | null
  /** Its container's entrypoint; null keeps the image's. */
  entrypoint: string[] | null
  env: Record<string, string>
  /** Where the local engine runs it: the build context, when there is one. */
  cwd: string | null
  /** The port it serves on, which a probe asks; null when it serves none. */
  port: number | null
  wait: WaitStrategy
}

/** One service: its instances start together (a Swarm service holds them all). */
export interface ServicePlan {
  name: string
  /** `gnes`: the GNES the engine provisioned runs it; else the service's image runs it. */
  runs: 'gnes' | { image: string }
  instances: InstancePlan[]
  /** `engine`: the run's cpus and memory; else the service's own (null: none). */
  limits: 'engine' | { cpus: number | null; memoryBytes: number | null }
  /** What must hold of earlier services before it starts (each is in an earlier wave). */
  after: Dependency[]
  /** DNS names on the deployment's network besides its own name. */
  aliases: string[]
  /** Its health check (run by the Docker engine until ready; on Swarm, its tasks'); null: none. */
  healthcheck: Healthcheck | null
  /** Swarm placement constraints of its topology entry. */
  constraints: string[]
  /** Its topology entry's Swarm endpoint mode; null takes the engine's. */
  endpointMode: 'vip' | 'dnsrr' | null
  /**
   * Runs where this host reaches it: the GNES frontend (its route dump is read from its
   * container) and a generic topology's load service (the driver sends to it).
   */
  pinned: boolean
  /** Files of the checkout, volumes and tmpfs in its containers (bind sources are real paths). */
  mounts: Mount[]
  /**
   * User, working directory, stop signal, hosts, shared memory, ulimits, runtime, and what only
   * restricts (process limit, dropped capabilities, no-new-privileges); null: the image's.
   */
  settings: ContainerSettings | null
}

/**
 * Where the load enters: its service's first replica, on `port`, at `host` where the plan fixes it
 * (GNES: the frontend as the load client beside it reaches it); null: where this host reaches that
 * replica once it started (a generic topology's driver runs here).
 */
export interface Entry {
  service: string
  port: number
  host: string | null
}

/**
 * A topology compiled for one deployment: every service, in waves of start order (a wave starts
 * once every earlier wave has started), and where the load enters.
 */
interface BasePlan {
  id: string
  waves: ServicePlan[][]
  /** Images a generic topology's services need ensured (pulled or built) before they start. */
  images: ContainerService[]
  entry: Entry
}

/** A GNES topology: the load client runs beside it, toward the frontend's gRPC port. */
export interface GnesPlan extends BasePlan {
  kind: 'gnes'
  /** The frontend's instance and where its `--dump_route` file is, inside it. */
  routeDump: { instance: string; path: string }
}

/** A generic topology: this host's driver sends to the load service's first replica. */
export interface HttpPlan extends BasePlan {
  kind: 'http'
}

export type Plan = GnesPlan | HttpPlan
