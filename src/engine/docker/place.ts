import type Docker from 'dockerode'
import type { Plan, ServicePlan } from '../plan/types'
import type { Placement } from '../platform'
import { scriptRunner } from './container'
import type { DaemonContext } from './daemon'
import { ensureServiceImages } from './image'
import { LABEL } from './labels'
import { createNetwork } from './network'
import { platformProblem } from './platform'
import { runtimeProblem } from './runtime'
import { deploymentLabels, fillCopies, type VolumePlace } from './volumes'

/** One deployment's place on a daemon, shared by its containers (Docker) or services (Swarm). */
export interface Place {
  /** Names of its objects: glb-<run>-<case>-<n>. */
  prefix: string
  network: Docker.Network
  /** The run's labels, the case's and the service's. */
  labels(service: string): Record<string, string>
  /** The image a service runs: the GNES image prepare() ensured, or its own. */
  image(service: ServicePlan): string
  /** A service's CPU and memory limits: the run's, or its own. */
  limits(service: ServicePlan): { cpus: number | null; memoryBytes: number | null }
  /** Where its volumes are named and how they are labelled. */
  volumes: VolumePlace
  /** Creates and fills a service's copies of writable directory mounts, before it starts. */
  fillCopies(service: ServicePlan): Promise<void>
  /** Scripts (the load client) in a throwaway GNES container on the network. */
  runScript: Placement['runScript']
}

/**
 * Refuses a runtime or a platform the daemon cannot run, then ensures a plan's service images and creates its
 * network (a bridge; an attachable overlay on Swarm, so the load client's plain container can
 * join the services on it).
 */
export async function openPlace(
  ctx: DaemonContext,
  plan: Plan,
  index: number,
  driver: 'bridge' | 'overlay'
): Promise<Place> {
  const { docker } = ctx
  const services = plan.waves.flat()
  const refused =
    runtimeProblem(services, ctx.runtimes, driver === 'overlay') ??
    platformProblem(services, ctx.platform)
  if (refused) throw new Error(`${plan.id}: ${refused}`)
  const gnes = plan.kind === 'gnes' ? ctx.requireImage() : null
  const images = await ensureServiceImages(docker, plan.images, ctx.log, ctx.contexts)
  const prefix = ctx.prefix(plan.id, index)
  const caseLabels = { ...ctx.labels, [LABEL.caseId]: plan.id }
  const network = await createNetwork(docker, prefix, caseLabels, driver)
  const volumes = { prefix, labels: deploymentLabels(caseLabels, prefix) }
  const image = (s: ServicePlan) => (s.runs === 'gnes' ? gnes! : images.get(s.name)!)
  return {
    prefix,
    network,
    labels: service => ({ ...caseLabels, [LABEL.service]: service }),
    image,
    volumes,
    fillCopies: s => fillCopies(docker, volumes, s, image(s), ctx.log),
    limits: s => (s.limits === 'engine' ? { cpus: ctx.cpus, memoryBytes: ctx.memory } : s.limits),
    // The GNES image is asked for when a script runs: only a GNES deployment runs one.
    runScript: (...args) =>
      scriptRunner(docker, {
        prefix,
        image: ctx.requireImage(),
        labels: caseLabels,
        network: network.id
      })(...args)
  }
}
