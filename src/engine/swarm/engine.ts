import { removeVolumes } from '../docker/volumes'
import type Docker from 'dockerode'
import { InputError } from '../../config/input-error'
import type { GnesMeta } from '../gnes-meta'
import type { Addressing } from '../../topology/commands'
import type { ContainerAddressing } from '../../topology/containers'
import type { GnesTopology, HttpTopology } from '../../topology/schema'
import { daemonAddress } from '../docker/client'
import { sweep } from '../docker/cleanup'
import { removeNetworkWhenFree } from '../docker/network'
import { containerAddressing } from '../docker/command'
import { readContainerFile } from '../docker/archive'
import { containerCounters } from '../docker/usage'
import { DaemonContext, type DaemonInfo, type DockerEngineOptions } from '../docker/daemon'
import { openPlace } from '../docker/place'
import { LifecycleEngine } from '../lifecycle'
import type { Plan, ServicePlan } from '../plan/types'
import type { Platform, Placement, Started } from '../platform'
import type { Engine } from '../types'
import { defaultEndpointMode, type EndpointMode } from './endpoint'
import { GATEWAY_NETWORK, gatewayAddressWithin, nodeAddress } from './gateway'
import { DeploymentFiles, emptyTextProblem, type HandedFiles } from './files'
import { takesStartInterval } from './health'
import { removeServices } from './services'
import { swarmSettingsProblem } from './settings-check'
import { swarmServiceSpec } from './spec'
import { TaskSlot, TaskWatcher } from './tasks'

/**
 * Whether a service's mounts hold it to this node: bind sources and the volumes filled here are
 * this node's; a tmpfs, and a secret or config Swarm hands over, go wherever it runs.
 */
const onThisNode = (service: ServicePlan, files: HandedFiles): boolean =>
  service.mounts.some((m, j) => m.type !== 'tmpfs' && m.type !== 'text' && !files.handed.has(j))

interface SwarmEngine extends Engine {
  readonly kind: 'swarm'
}

/**
 * Each topology as Swarm services (replicas are service replicas) on an attachable overlay network
 * of its own. Peers reach a service by its name; `${addrs:S}` is `tasks.S`, the name Swarm's DNS
 * answers with every task. A pinned service (the GNES frontend, whose route dump is read from its
 * container; a generic topology's load service) runs on the manager this engine talks to, and the
 * load client runs as a plain container there, attached to the overlay; other services go where
 * their `deploy.placement` says. This host reaches a container of a task on this node at its
 * address on the gateway bridge, so nothing is published (the routing mesh needs IPVS, which not
 * every kernel has); a task elsewhere is out of its reach.
 */
class SwarmPlatform implements Platform<'swarm'> {
  readonly kind = 'swarm' as const
  private nodeId = ''
  private endpointMode: EndpointMode = 'dnsrr'
  /** The daemon's Engine API version, which says what a service spec may hold. */
  private apiVersion = ''

  constructor(private readonly ctx: DaemonContext) {}

  get runId(): string {
    return this.ctx.runId
  }

  async prepare(gnes: boolean): Promise<GnesMeta | null> {
    const meta = await this.ctx.prepare(gnes, info => this.checkManager(info))
    const nodes = (await this.ctx.docker.listNodes()) as {
      Description?: { Hostname?: string }
      Status?: { State?: string }
    }[]
    const ready = nodes.filter(n => n.Status?.State === 'ready')
    const names = ready.map(n => n.Description?.Hostname).join(', ')
    const endpoint = defaultEndpointMode()
    this.endpointMode = endpoint.mode
    this.apiVersion = (await this.ctx.docker.version()).ApiVersion
    this.ctx.log(
      `swarm of ${ready.length} ready node(s): ${names}; endpoint mode ${endpoint.mode} (${endpoint.why}) unless a service's deploy.endpoint_mode says otherwise`
    )
    return meta
  }

  private checkManager(info: DaemonInfo): void {
    const swarm = info.Swarm ?? {}
    if (swarm.LocalNodeState !== 'active' || !swarm.ControlAvailable || !swarm.NodeID) {
      throw new InputError(
        `Invalid input:\n  input 'engine' = 'swarm': the daemon at ${daemonAddress()} is not a swarm manager (swarm state: ${swarm.LocalNodeState ?? 'unknown'}); run 'docker swarm init' there (scripts/swarm-setup.sh does) or point DOCKER_HOST at a manager`
      )
    }
    this.nodeId = swarm.NodeID
  }

  async gnesAddressing(topology: GnesTopology): Promise<Addressing> {
    return containerAddressing(topology)
  }

  /** One spec serves every replica of a service: they share the first replica's command. */
  async httpAddressing(topology: HttpTopology): Promise<ContainerAddressing> {
    const byName = new Map(topology.services.map(s => [s.name, s]))
    // The topology's check refuses an address of a service without a port.
    const port = (service: string): number | null => byName.get(service)!.port ?? null
    return {
      port,
      addr: service => `${service}:${port(service)}`,
      addrs: service => [`tasks.${service}:${port(service)}`]
    }
  }

  async open(plan: Plan, index: number): Promise<Placement> {
    const { docker } = this.ctx
    const plans = plan.waves.flat()
    const refused = swarmSettingsProblem(plans, this.apiVersion) ?? emptyTextProblem(plans)
    if (refused) throw new Error(`${plan.id}: ${refused}`)
    const place = await openPlace(this.ctx, plan, index, 'overlay')
    const made = new DeploymentFiles(docker, place.prefix, place.volumes.labels, this.ctx.log)
    const services: Docker.Service[] = []
    const watcher = new TaskWatcher(docker)
    let removed = false
    return {
      start: async (service, io) => {
        const image = place.image(service)
        await place.fillCopies(service)
        const files = await made.forService(service)
        const created = await docker.createService(
          swarmServiceSpec(service, {
            name: `${place.prefix}-${service.name}`,
            image,
            labels: place.labels(service.name),
            network: place.network.id,
            volumes: place.volumes,
            ...place.limits(service),
            files,
            pinnedTo: service.pinned || onThisNode(service, files) ? this.nodeId : null,
            endpointMode: service.endpointMode ?? this.endpointMode,
            startInterval: takesStartInterval(this.apiVersion)
          })
        )
        // Removed while it was being created: the removal has passed it by, so it goes now.
        if (removed) return removeServices(docker, [created])
        services.push(created)
        const slots = service.instances.map(i => new TaskSlot(i.name, io.output(i), image))
        watcher.watch(created.id, slots)
        slots.forEach((slot, k) => {
          const started: Started = {
            exited: slot.exited,
            exitCode: slot.exitCode,
            healthy: () => slot.running,
            get node() {
              return slot.node
            },
            // A pinned task runs on this node, so its address must come; another's may be elsewhere.
            address: async () => {
              const host = await gatewayAddressWithin(docker, slot, service.pinned ? 30_000 : 2_000)
              if (service.pinned && !host) {
                throw new Error(`${slot.name}: no address on ${GATEWAY_NETWORK}`)
              }
              return host
            },
            readFile: async file =>
              slot.containerId
                ? readContainerFile(docker.getContainer(slot.containerId), file)
                : '',
            fileName: file => `${place.prefix}-${service.name} (task on this manager):${file}`,
            counters: () => containerCounters(docker, slot.containerId)
          }
          void io.started(service.instances[k], started)
        })
      },
      runScript: place.runScript,
      traceHost: () => nodeAddress(docker),
      async remove() {
        removed = true
        watcher.stop()
        await removeServices(docker, services)
        await made.remove()
        await removeNetworkWhenFree(place.network)
        await removeVolumes(docker, place.volumes.labels)
      }
    }
  }

  async sweep(): Promise<void> {
    await sweep({ runId: this.ctx.runId }, this.ctx.docker)
  }
}

export function createSwarmEngine(options: DockerEngineOptions): SwarmEngine {
  const ctx = new DaemonContext('swarm', options)
  return new LifecycleEngine(new SwarmPlatform(ctx), ctx.log)
}
