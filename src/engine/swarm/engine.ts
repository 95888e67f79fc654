import type Docker from 'dockerode'
import * as path from 'node:path'
import { InputError } from '../../config/inputs'
import type { GnesMeta } from '../gnes-meta'
import { READY_PATTERN, startOrder } from '../../topology/commands'
import type { Service, Topology } from '../../topology/schema'
import { daemonAddress } from '../docker/client'
import { removeNetworkWhenFree, sweep } from '../docker/cleanup'
import { containerAddressing, GRPC_PORT, ROUTE_DUMP } from '../docker/command'
import { scriptRunner } from '../docker/container'
import { readContainerFile } from '../docker/archive'
import { DaemonContext, type DaemonInfo, type DockerEngineOptions } from '../docker/daemon'
import { LABEL } from '../docker/labels'
import { createNetwork } from '../docker/network'
import { LifecycleEngine, type DeploymentDriver, type Instance, type Platform } from '../lifecycle'
import { LogTail } from '../log-tail'
import type { Engine } from '../types'
import { defaultEndpointMode, type EndpointMode } from './endpoint'
import { openGenericServices } from './generic'
import { removeServices, serviceSpec } from './services'
import { TaskSlot, TaskWatcher } from './tasks'

interface SwarmEngine extends Engine {
  readonly kind: 'swarm'
}

/**
 * Each topology as Swarm services (replicas are service replicas) on an attachable overlay network
 * of its own. The frontend is pinned to the manager this engine talks to, so its route dump is read
 * from its container there, and the load client runs as a plain container on that manager,
 * attached to the overlay. Other services go where their `deploy.placement` says.
 */
class SwarmPlatform implements Platform<'swarm'> {
  readonly kind = 'swarm' as const
  private nodeId = ''
  private endpointMode: EndpointMode = 'dnsrr'

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

  async open(topology: Topology, index: number, logDir: string): Promise<DeploymentDriver> {
    if (topology.kind === 'http') {
      return openGenericServices(this.ctx, topology, index, logDir, {
        nodeId: this.nodeId,
        endpointMode: this.endpointMode
      })
    }
    const { docker, labels } = this.ctx
    const image = this.ctx.requireImage()
    const prefix = this.ctx.prefix(topology.id, index)
    const caseLabels = { ...labels, [LABEL.caseId]: topology.id }
    const network = await createNetwork(docker, prefix, caseLabels, 'overlay')
    const byName = new Map(topology.services.map(s => [s.name, s]))
    const frontendName = topology.services.find(s => s.role === 'frontend')!.name
    const services: Docker.Service[] = []
    const watcher = new TaskWatcher(docker)
    let frontend: TaskSlot | undefined
    const spec = (s: Service, argv: string[], replicas: number) =>
      this.serviceSpec(s, {
        name: `${prefix}-${s.name}`,
        image,
        argv,
        replicas,
        network,
        caseLabels
      })

    return {
      order: startOrder(topology, containerAddressing(topology)),
      frontend: { host: frontendName, port: GRPC_PORT },
      routeDumpName: `${prefix}-${frontendName} (task on this manager):${ROUTE_DUMP}`,
      async startService(all): Promise<Instance[]> {
        const commands = all.flatMap(c => (c.kind === 'gnes' ? [c] : []))
        const service = byName.get(commands[0].service)!
        const created = await docker.createService(spec(service, commands[0].argv, commands.length))
        services.push(created)
        const slots = commands.map(
          c =>
            new TaskSlot(
              c.instance,
              new LogTail(path.join(logDir, `${c.instance}.log`), READY_PATTERN[c.role]),
              image
            )
        )
        if (service.role === 'frontend') frontend = slots[0]
        watcher.watch(created.id, slots)
        return slots.map(slot => ({
          name: slot.name,
          service: service.name,
          output: slot.output,
          exited: slot.exited,
          get node() {
            return slot.node
          },
          ready: slot.output.ready
        }))
      },
      runScript: scriptRunner(docker, { prefix, image, labels: caseLabels, network: network.id }),
      async readRouteDump() {
        const id = frontend?.containerId
        return id ? readContainerFile(docker.getContainer(id), ROUTE_DUMP) : ''
      },
      async remove() {
        watcher.stop()
        await removeServices(docker, services)
        await removeNetworkWhenFree(network)
      }
    }
  }

  private serviceSpec(
    s: Service,
    o: {
      name: string
      image: string
      argv: string[]
      replicas: number
      network: Docker.Network
      caseLabels: Record<string, string>
    }
  ): Docker.CreateServiceOptions {
    const labels = { ...o.caseLabels, [LABEL.service]: s.name }
    const constraints = [...(s.deploy?.placement.constraints ?? [])]
    // The route dump is read from the frontend's container, so it runs where we can reach it.
    if (s.role === 'frontend') constraints.push(`node.id==${this.nodeId}`)
    return serviceSpec({
      name: o.name,
      labels,
      container: { Image: o.image, Command: ['gnes'], Args: o.argv, Env: ['PYTHONUNBUFFERED=1'] },
      replicas: o.replicas,
      constraints,
      cpus: this.ctx.cpus,
      memoryBytes: this.ctx.memory,
      network: o.network.id,
      alias: s.name,
      endpointMode: s.deploy?.endpoint_mode ?? this.endpointMode
    })
  }

  async sweep(): Promise<void> {
    await sweep({ runId: this.ctx.runId }, this.ctx.docker)
  }
}

export function createSwarmEngine(options: DockerEngineOptions): SwarmEngine {
  const ctx = new DaemonContext('swarm', options)
  return new LifecycleEngine(new SwarmPlatform(ctx), ctx.log)
}
