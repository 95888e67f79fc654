import { oneShots } from './depends'
import { dependencyOrder } from './http-check'
import type { ContainerService, Healthcheck } from './http-schema'
import { expandPlaceholders } from './placeholders'
import type { HttpTopology } from './schema'

/**
 * How a generic service's instance tells it is ready: a log line, a 2xx on a path, its port taking
 * a connection, Docker's health check, running at all (no port), or (a one-shot job) its exit 0.
 */
export type Readiness =
  | { log: RegExp }
  | { http: string }
  | { tcp: true }
  | { healthcheck: Healthcheck }
  | { running: true }
  | { completed: true }

/** One instance of a generic service to start: a container, or a process on the local engine. */
export interface ContainerCommand {
  kind: 'container'
  service: string
  replica: number
  /** Unique per replica, e.g. relay-0; used for logs and container names. */
  instance: string
  image: string
  /** Null: the image's own command (containers only). */
  argv: string[] | null
  /** Null: the image's own entrypoint (containers only). */
  entrypoint: string[] | null
  env: Record<string, string>
  /** Where the local engine runs it: the build context, when there is one. */
  cwd: string | null
  /** The port it serves on, after the engine's assignment; null when it has none. */
  port: number | null
  ready: Readiness
  cpus: number | null
  memoryBytes: number | null
  deploy: ContainerService['deploy']
}

/** Where an engine puts each instance of a generic topology. */
export interface ContainerAddressing {
  /** Null for a service without a port. */
  port(service: string, replica: number): number | null
  addr(service: string): string
  addrs(service: string): string[]
  /** The trace receiver's endpoints for `${otlp}` and `${otlp-grpc}`; set once it listens. */
  otlp?: { http: string; grpc: string }
}

function readiness(s: ContainerService, oneShot: boolean): Readiness {
  if (oneShot) return { completed: true }
  if (!s.ready) return s.port === undefined ? { running: true } : { tcp: true }
  return 'log' in s.ready ? { log: new RegExp(s.ready.log) } : s.ready
}

/**
 * Every instance's command, grouped by service, the services in waves of dependency order (a wave
 * depends only on earlier ones), placeholders filled in.
 */
export function containerStartOrder(
  t: HttpTopology,
  addressing: ContainerAddressing
): ContainerCommand[][][] {
  const byName = new Map(t.services.map(s => [s.name, s]))
  const jobs = oneShots(t.services)
  return dependencyOrder(t).map(wave =>
    wave.map(name => {
      const s = byName.get(name)!
      return Array.from({ length: s.replicas }, (_, replica): ContainerCommand => {
        const port = addressing.port(s.name, replica)
        const fill = (text: string): string =>
          expandPlaceholders(text, {
            port,
            replica,
            addr: addressing.addr,
            addrs: addressing.addrs,
            otlp: addressing.otlp
          })
        return {
          kind: 'container',
          service: s.name,
          replica,
          instance: `${s.name}-${replica}`,
          image: s.image,
          argv: s.command?.map(fill) ?? null,
          entrypoint: s.entrypoint?.map(fill) ?? null,
          env: Object.fromEntries(Object.entries(s.environment).map(([k, v]) => [k, fill(v)])),
          cwd: s.build?.context ?? null,
          port,
          ready: readiness(s, jobs.has(s.name)),
          cpus: s.resources.cpus ?? null,
          memoryBytes: s.resources.memory ?? null,
          deploy: s.deploy
        }
      })
    })
  )
}
