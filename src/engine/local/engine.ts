import * as path from 'node:path'
import type { GnesMeta } from '../gnes-meta'
import type { Addressing } from '../../topology/commands'
import type { ContainerAddressing } from '../../topology/containers'
import { localEngineProblem, refusalPlace } from '../../topology/http-check'
import type { GnesTopology, HttpTopology } from '../../topology/schema'
import { LifecycleEngine } from '../lifecycle'
import type { Platform, Placement } from '../platform'
import type { ServiceFailure } from '../types'
import { freePorts } from './ports'
import { HOST, localPlacement } from './placement'
import { readGnesSource } from '../source-tree'
import { ensureGnesVenv, ensureSourceVenv, type GnesVenv } from './venv'

/** Where the local engine's GNES comes from: a PyPI release, or a source tree (`gnes-source`). */
export type GnesInstall = { version: string } | { source: string }

/**
 * Processes on loopback, GNES from a cached virtual environment, each on ports of its own that
 * its peers are told. Resource limits are the containers' business; here they do not apply.
 */
class LocalPlatform implements Platform<'local'> {
  readonly kind = 'local' as const
  private venv: GnesVenv | undefined

  constructor(
    private readonly gnes: GnesInstall,
    readonly runId: string,
    private readonly log: (line: string) => void
  ) {}

  async prepare(gnes: boolean): Promise<GnesMeta | null> {
    if (!gnes) return null
    if ('version' in this.gnes) {
      this.venv = await ensureGnesVenv(this.gnes.version, this.log)
      return { version: this.venv.version, tag: this.venv.version, vcs: null, buildDate: null }
    }
    const source = readGnesSource(this.gnes.source)
    this.venv = await ensureSourceVenv(source, this.log)
    const tag = `source-${source.hash.slice(0, 12)}`
    return { version: this.venv.version, tag, vcs: source.commit, buildDate: null }
  }

  /** Two ports per service and the frontend's gRPC port; the route dump beside the logs. */
  async gnesAddressing(topology: GnesTopology, logDir: string): Promise<Addressing> {
    if (!this.venv) throw new Error('local engine: prepare() must run before start()')
    const [grpcPort, ...ports] = await freePorts(1 + 2 * topology.services.length)
    const portOf = new Map(
      topology.services.flatMap((s, i) => [
        [`${s.name}:in`, ports[2 * i]],
        [`${s.name}:out`, ports[2 * i + 1]]
      ])
    )
    return {
      host: () => HOST,
      port: (service, side) => portOf.get(`${service}:${side}`)!,
      grpcPort,
      dumpPath: path.join(logDir, 'route-dump.jsonl')
    }
  }

  /**
   * A port per instance of a service with a port, which `${port}` and `${addr:S}` hand to it and
   * its peers. Refuses, before anything starts, what only containers can do.
   */
  async httpAddressing(topology: HttpTopology): Promise<ContainerAddressing> {
    const refused = localEngineProblem(topology)
    if (refused) {
      throw new Error(
        `${topology.id}: at ${refusalPlace(refused)}: it ${refused.problem}; the local engine runs a command per service as a process`
      )
    }
    const slots = topology.services
      .filter(s => s.port !== undefined)
      .flatMap(s => Array.from({ length: s.replicas }, (_, r) => `${s.name}-${r}`))
    const ports = await freePorts(slots.length)
    const portOf = new Map(slots.map((slot, i) => [slot, ports[i]]))
    const replicas = new Map(topology.services.map(s => [s.name, s.replicas]))
    return {
      port: (service, replica) => portOf.get(`${service}-${replica}`) ?? null,
      addr: service => `${HOST}:${portOf.get(`${service}-0`)}`,
      addrs: service =>
        Array.from(
          { length: replicas.get(service)! },
          (_, r) => `${HOST}:${portOf.get(`${service}-${r}`)}`
        )
    }
  }

  async open(): Promise<Placement> {
    return localPlacement(this.runId, () => {
      if (!this.venv) throw new Error('local engine: prepare() must run before start()')
      return this.venv
    })
  }

  async sweep(): Promise<void> {
    // Every process is tracked by its deployment, and the parent-death signal covers the rest.
  }

  /**
   * Free ports are released before GNES binds them, so another suite on this machine can take one
   * in between; a start that fails on a taken port is retried on fresh ports.
   */
  retryable(failure: ServiceFailure): boolean {
    return /address already in use/i.test(failure.logTail)
  }
}

/** Runs topologies as processes on loopback. */
export class LocalEngine extends LifecycleEngine<'local'> {
  constructor(gnes: GnesInstall, suiteId: string, log: (line: string) => void) {
    super(new LocalPlatform(gnes, suiteId, log), log)
  }
}
