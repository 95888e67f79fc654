import * as core from '@actions/core'
import type Docker from 'dockerode'
import { unsupportedVersion } from '../../config/gnes-version'
import { randomUUID } from 'node:crypto'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { InputError, type Inputs } from '../../config/inputs'
import {
  CLIENT_SCRIPT,
  clientArgs,
  clientScriptPath,
  readClientReports,
  type ClientPlan,
  type StreamReport
} from '../../client/load-client'
import type { GnesMeta } from '../../result/schema'
import type { Topology } from '../../topology/schema'
import { ServiceFailure, type Deployment, type Engine, type StartOptions } from '../types'
import { readContainerFile } from './archive'
import { daemonAddress, dockerClient, withTimeout } from './client'
import { runOnce, ServiceContainer } from './container'
import { sweep } from './cleanup'
import { GRPC_PORT, orderedCommands, readyPattern, ROUTE_DUMP } from './command'
import { ensureImage, imageMeta, type ImageSource } from './image'
import { currentRepository, LABEL, runLabels } from './labels'
import { hostLimits, parseCpus, parseMemory, type Limits } from './limits'
import { createNetwork, removeNetwork } from './network'

/** The action saves the run id under this name; its `post:` step sweeps what carries it. */
export const STATE_RUN_ID = 'docker-run-id'
/** Leftovers of this repository's earlier runs older than this are swept at prepare(). */
const LEFTOVER_AGE_MS = 6 * 3600 * 1000

export interface DockerEngineOptions {
  gnesVersion: string
  /** An existing image reference; pulled when missing. Wins over the other two sources. */
  image?: string | null
  /** A Dockerfile to build (e.g. a GNES checkout); its context defaults to its directory. */
  dockerfile?: string | null
  dockerContext?: string | null
  /** Base of the shipped Dockerfile when GNES is built from PyPI. */
  baseImage: string
  /** Wheels for an offline build; default: scripts/docker-wheelhouse.sh's cache, if present. */
  wheelhouse?: string | null
  /** Per-service limits, as docker run's --cpus and --memory spell them. */
  cpus?: string | null
  memory?: string | null
  runId?: string
  repository?: string
  log?: (line: string) => void
}

export interface DockerEngine extends Engine {
  readonly kind: 'docker'
  readonly runId: string
}

/** Engine options from the action's inputs / CLI flags. */
export function dockerEngineOptions(
  inputs: Inputs,
  extra: Partial<DockerEngineOptions> = {}
): DockerEngineOptions {
  return {
    gnesVersion: inputs['gnes-version'],
    image: inputs.image,
    dockerfile: inputs.dockerfile,
    dockerContext: inputs['docker-context'],
    baseImage: inputs['base-image'],
    wheelhouse: inputs.wheelhouse,
    cpus: inputs.cpus,
    memory: inputs.memory,
    ...extra
  }
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
  const unsupported = unsupportedVersion(o.gnesVersion)
  if (unsupported) {
    throw new InputError(
      `Invalid input:\n  input 'gnes-version' = '${o.gnesVersion}': ${unsupported}`
    )
  }
  return {
    kind: 'pypi',
    version: o.gnesVersion,
    baseImage: o.baseImage,
    wheelhouse: o.wheelhouse ?? null
  }
}

/**
 * Runs each topology in containers on a user-defined bridge network of its own; the load client
 * runs in a container on that network too, so no host port is published.
 */
export function createDockerEngine(options: DockerEngineOptions): DockerEngine {
  const docker = dockerClient()
  const log = options.log ?? ((line: string) => console.log(`[docker] ${line}`))
  const runId = options.runId ?? randomUUID()
  const short = runId.replace(/-/g, '').slice(0, 8)
  const labels = runLabels(runId, options.repository ?? currentRepository())
  // Bad limits and sources fail here, before anything is created.
  const memory = parseMemory(options.memory)
  parseCpus(options.cpus)
  const source = imageSource(options)

  let image: string | null = null
  let limits: Limits = {}
  let closed = false
  let shutdownDone: Promise<void> | null = null
  let deploymentCount = 0
  const live = new Set<Deployment>()

  const engine: DockerEngine = {
    kind: 'docker',
    runId,

    async prepare(): Promise<GnesMeta> {
      try {
        await withTimeout(docker.ping(), 5000, 'ping')
      } catch (err) {
        throw new InputError(
          `Invalid input:\n  input 'engine' = 'docker': no Docker daemon answers at ${daemonAddress()} (DOCKER_HOST): ${(err as Error).message}`
        )
      }
      const info = (await docker.info()) as { NCPU: number; ServerVersion: string }
      limits = hostLimits(parseCpus(options.cpus, info.NCPU), memory)
      log(`Docker ${info.ServerVersion} at ${daemonAddress()}; run id ${runId}`)
      if (process.env.GITHUB_STATE) core.saveState(STATE_RUN_ID, runId)
      const old = await sweep(
        { repository: labels[LABEL.repository], olderThan: LEFTOVER_AGE_MS },
        docker
      )
      if (old.containers + old.networks > 0) {
        log(`removed ${old.containers} containers, ${old.networks} networks left by earlier runs`)
      }
      image = await ensureImage(docker, source, log)
      return imageMeta(docker, image, source, labels)
    },

    async start(topology: Topology, opts: StartOptions): Promise<Deployment> {
      if (!image) throw new Error('docker engine: prepare() must run before start()')
      if (closed) throw new Error('docker engine: shut down')
      const n = ++deploymentCount
      const prefix = `glb-${short}-${topology.id}-${n}`
      const caseLabels = { ...labels, [LABEL.caseId]: topology.id }
      fs.mkdirSync(opts.logDir, { recursive: true })
      const deployment = await deploy(docker, {
        topology,
        prefix,
        image,
        labels: caseLabels,
        limits,
        logDir: opts.logDir,
        readyTimeoutMs: opts.readyTimeoutMs,
        isClosed: () => closed,
        onStop: d => live.delete(d),
        onCreate: d => live.add(d)
      })
      return deployment
    },

    shutdown(): Promise<void> {
      closed = true
      shutdownDone ??= (async () => {
        await Promise.allSettled([...live].map(d => d.stop()))
        // Catches what was being created while we stopped (a client, a half-started case).
        await sweep({ runId }, docker).catch(() => undefined)
      })()
      return shutdownDone
    }
  }
  return engine
}

interface DeploySpec {
  topology: Topology
  prefix: string
  image: string
  labels: Record<string, string>
  limits: Limits
  logDir: string
  readyTimeoutMs: number
  isClosed: () => boolean
  onCreate: (d: Deployment) => void
  onStop: (d: Deployment) => void
}

async function deploy(docker: Docker, spec: DeploySpec): Promise<Deployment> {
  const { topology, prefix } = spec
  const network = await createNetwork(docker, prefix, spec.labels)
  const services: ServiceContainer[] = []
  let stopping = false
  let stopped: Promise<void> | null = null
  let fail!: (err: ServiceFailure) => void
  const failed = new Promise<never>((_, reject) => (fail = reject))
  // Callers race this against their work; an unobserved rejection must not crash the process.
  failed.catch(() => undefined)
  const frontend = topology.services.find(s => s.role === 'frontend')!
  let clients = 0

  const deployment: Deployment = {
    failed,
    routeDumpName: `${prefix}-${frontend.name}-0:${ROUTE_DUMP}`,

    async runClient(plan: ClientPlan, timeoutSec: number): Promise<StreamReport[]> {
      const r = await runOnce(docker, {
        name: `${prefix}-client-${++clients}`,
        image: spec.image,
        entrypoint: ['python'],
        cmd: [
          `/tmp/${CLIENT_SCRIPT}`,
          ...clientArgs({ host: frontend.name, port: GRPC_PORT }, plan, timeoutSec)
        ],
        labels: spec.labels,
        network: network.id,
        files: {
          dir: '/tmp',
          files: [{ name: CLIENT_SCRIPT, content: fs.readFileSync(clientScriptPath()) }]
        },
        // The client has its own deadline; this one catches a client that hangs past it.
        timeoutMs: (timeoutSec + 30) * 1000,
        cancel: failed
      }).catch(async err => {
        await Promise.race([failed, Promise.resolve()])
        throw err
      })
      if (r.exitCode !== 0) {
        await Promise.race([failed, Promise.resolve()])
        const tail = r.stderr.trim().split('\n').slice(-10).join('\n')
        throw new Error(`load client exited with code ${r.exitCode}: ${tail}`)
      }
      return readClientReports(r.stdout, plan)
    },

    readRouteDump(): Promise<string> {
      const fe = services.find(s => s.spec.labels[LABEL.service] === frontend.name)!
      return readContainerFile(fe.container, ROUTE_DUMP)
    },

    stop(): Promise<void> {
      stopping = true
      stopped ??= (async () => {
        await Promise.allSettled(services.map(s => s.remove()))
        await removeNetwork(network)
        spec.onStop(deployment)
      })()
      return stopped
    }
  }
  spec.onCreate(deployment)

  try {
    for (const c of orderedCommands(topology)) {
      if (spec.isClosed()) throw new Error('docker engine: shut down while starting')
      const svc = await ServiceContainer.create(docker, {
        hostname: c.instance,
        aliases: [c.service],
        containerName: `${prefix}-${c.instance}`,
        image: spec.image,
        cmd: c.argv,
        labels: { ...spec.labels, [LABEL.service]: c.service },
        network: network.id,
        limits: spec.limits,
        logFile: path.join(spec.logDir, `${c.instance}.log`),
        ready: readyPattern(c)
      })
      services.push(svc)
      const { exited } = await svc.start()
      void exited.then(async code => {
        if (!stopping)
          fail(new ServiceFailure(c.instance, `exited (code ${code})`, await svc.tail()))
      })
    }
    await waitReady(services, failed, spec.readyTimeoutMs)
  } catch (err) {
    await deployment.stop()
    throw err
  }
  return deployment
}

async function waitReady(
  services: ServiceContainer[],
  failed: Promise<never>,
  timeoutMs: number
): Promise<void> {
  const ready = new Set<ServiceContainer>()
  const all = Promise.all(services.map(s => s.isReady.then(() => ready.add(s))))
  try {
    await withTimeout(Promise.race([all, failed]), timeoutMs, 'readiness')
  } catch (err) {
    if (err instanceof ServiceFailure) throw err
    const late = services.find(s => !ready.has(s))!
    throw new ServiceFailure(
      late.spec.hostname,
      `not ready after ${timeoutMs / 1000}s`,
      await late.tail()
    )
  }
}
