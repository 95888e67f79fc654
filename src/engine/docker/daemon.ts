import type Docker from 'dockerode'
import { randomUUID } from 'node:crypto'
import * as path from 'node:path'
import { checkSupportedVersion } from '../../config/gnes-version'
import { InputError } from '../../config/input-error'
import type { EngineKind } from '../../config/engines'
import type { GnesMeta } from '../gnes-meta'
import type { DaemonSettings } from '../settings'
import { withTimeout } from '../deadline'
import { daemonAddress, dockerClient } from './client'
import { describeSweep, sweep } from './cleanup'
import { BuildContexts } from './build-context'
import { ensureImage, imageMeta, type ImageSource } from './image'
import { currentRepository, LABEL, runLabels } from './labels'
import { parseCpus, parseMemory } from './limits'
import type { DaemonPlatform } from './platform'
import { startReaper } from './reaper'

/** Leftovers of this repository's earlier runs older than this are swept at prepare(). */
const LEFTOVER_AGE_MS = 6 * 3600 * 1000

/** Options of the engines that talk to a Docker daemon (docker, swarm). */
export interface DockerEngineOptions extends DaemonSettings {
  runId?: string
  repository?: string
  log?: (line: string) => void
}

function imageSource(o: DockerEngineOptions): ImageSource {
  if (o.image) return { kind: 'ref', ref: o.image }
  if (o.dockerfile) {
    return {
      kind: 'dockerfile',
      dockerfile: o.dockerfile,
      context: o.dockerContext ?? path.dirname(o.dockerfile)
    }
  }
  if (o.gnesSource) {
    return {
      kind: 'source',
      dir: o.gnesSource,
      baseImage: o.baseImage,
      archives: o.imageArchives ?? null
    }
  }
  checkSupportedVersion(o.gnesVersion)
  return {
    kind: 'pypi',
    version: o.gnesVersion,
    baseImage: o.baseImage,
    archives: o.imageArchives ?? null
  }
}

/** The parts of `docker info` the engines read. */
export interface DaemonInfo {
  NCPU: number
  ServerVersion: string
  /** The runtimes registered with the daemon, by name. */
  Runtimes?: Record<string, unknown>
  /** The platform it runs containers for: `linux`, `x86_64`. */
  OSType?: string
  Architecture?: string
  Swarm?: { LocalNodeState?: string; ControlAvailable?: boolean; NodeID?: string }
}

/** What the docker and swarm engines share: one daemon, one run id, its labels and image. */
export class DaemonContext {
  readonly docker: Docker = dockerClient()
  readonly runId: string
  /** 8 hex digits of the run id, for names. */
  readonly short: string
  readonly labels: Record<string, string>
  readonly log: (line: string) => void
  readonly memory: number | null
  cpus: number | null = null
  image: string | null = null
  /** The runtimes the daemon has registered, read by prepare(). */
  runtimes: ReadonlySet<string> = new Set()
  /** The platform it runs containers for, read by prepare(). */
  platform: DaemonPlatform = { os: '', architecture: '' }
  /** The run's build contexts, each read once; the run's output is never part of one. */
  readonly contexts: BuildContexts
  private readonly source: ImageSource

  /** Bad limits and image sources fail here, before anything is created. */
  constructor(
    readonly engine: Exclude<EngineKind, 'local'>,
    private readonly options: DockerEngineOptions
  ) {
    this.log = options.log ?? ((line: string) => console.log(`[${engine}] ${line}`))
    this.runId = options.runId ?? randomUUID()
    this.short = this.runId.replace(/-/g, '').slice(0, 8)
    this.labels = runLabels(this.runId, options.repository ?? currentRepository())
    this.memory = parseMemory(options.memory)
    parseCpus(options.cpus)
    this.source = imageSource(options)
    this.contexts = new BuildContexts(
      [options.outDir, options.imageArchives].filter((d): d is string => !!d)
    )
  }

  /**
   * Pings, lets `check` refuse the daemon (before any work), hands the run id to who removes it,
   * sweeps old leftovers and ensures the GNES image when `gnes`.
   */
  async prepare(
    gnes: boolean,
    check: (info: DaemonInfo) => void = () => undefined
  ): Promise<GnesMeta | null> {
    try {
      await withTimeout(this.docker.ping(), 5000, 'ping')
    } catch (err) {
      throw new InputError(
        `Invalid input:\n  input 'engine' = '${this.engine}': no Docker daemon answers at ${daemonAddress()} (DOCKER_HOST): ${(err as Error).message}`
      )
    }
    const info = (await this.docker.info()) as DaemonInfo
    check(info)
    this.cpus = parseCpus(this.options.cpus, info.NCPU)
    this.runtimes = new Set(Object.keys(info.Runtimes ?? {}))
    this.platform = { os: info.OSType ?? '', architecture: info.Architecture ?? '' }
    this.log(`Docker ${info.ServerVersion} at ${daemonAddress()}; run id ${this.runId}`)
    // Before anything is created: whatever ends this process, what carries the run id goes,
    // removed by the caller that keeps the id (the action's post step), else by a reaper.
    if (this.options.keepRunId) this.options.keepRunId(this.runId)
    else startReaper(this.runId, this.log)
    const old = await sweep(
      { repository: this.labels[LABEL.repository], olderThan: LEFTOVER_AGE_MS },
      this.docker
    )
    if (Object.values(old).some(n => n > 0))
      this.log(`removed what earlier runs left: ${describeSweep(old)}`)
    // Generic topologies build their services' images when they start.
    if (!gnes) return null
    this.image = await ensureImage(this.docker, this.source, this.log, this.contexts)
    return imageMeta(this.docker, this.image, this.source, this.labels)
  }

  /** The image prepare() ensured; starting before it is a programming error. */
  requireImage(): string {
    if (!this.image) throw new Error(`${this.engine} engine: prepare() must run before start()`)
    return this.image
  }

  /** Names of one deployment's objects: glb-<run>-<case>-<n>. */
  prefix(topologyId: string, index: number): string {
    return `glb-${this.short}-${topologyId}-${index}`
  }
}
