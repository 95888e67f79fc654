import type Docker from 'dockerode'
import * as path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { containerStartOrder, type ContainerCommand } from '../../topology/containers'
import type { HttpTopology } from '../../topology/schema'
import { removeNetworkWhenFree } from '../docker/cleanup'
import type { DaemonContext } from '../docker/daemon'
import { ensureServiceImages } from '../docker/image'
import { LABEL } from '../docker/labels'
import { createNetwork } from '../docker/network'
import type { DeploymentDriver, Instance } from '../lifecycle'
import { LogTail } from '../log-tail'
import { probeUntilReady } from '../probe'
import type { EndpointMode } from './endpoint'
import { removeServices, serviceSpec } from './services'
import { TaskSlot, TaskWatcher } from './tasks'

/** Where this host reaches a container of a task on this node: its address on the gateway bridge. */
const GATEWAY_NETWORK = 'docker_gwbridge'

/** Resolves with `slot`'s container once its task has one; rejects if the task ends first. */
async function started(slot: TaskSlot): Promise<string> {
  let ended: string | null = null
  void slot.exited.then(reason => (ended = reason))
  while (!slot.containerId) {
    if (ended !== null) throw new Error(`${slot.name} ${ended}`)
    await sleep(100)
  }
  return slot.containerId
}

/**
 * A generic topology as Swarm services on an overlay network of its own, one service per topology
 * service (its replicas are the service's). Peers reach a service by its name; `${addrs:S}` is
 * `tasks.S`, the name Swarm's DNS answers with every task. The load's service runs on this node,
 * and this host reaches it at its container's address on the gateway bridge, so nothing is
 * published (the routing mesh needs IPVS, which not every kernel has). A service ready by a probe
 * is probed there too when it runs on this node; elsewhere it is ready once its task runs.
 */
export async function openGenericServices(
  ctx: DaemonContext,
  topology: HttpTopology,
  index: number,
  logDir: string,
  place: { nodeId: string; endpointMode: EndpointMode }
): Promise<DeploymentDriver> {
  const { docker, labels } = ctx
  const images = await ensureServiceImages(docker, topology.services, ctx.log)
  const prefix = ctx.prefix(topology.id, index)
  const caseLabels = { ...labels, [LABEL.caseId]: topology.id }
  const byName = new Map(topology.services.map(s => [s.name, s]))
  const port = (service: string): number => byName.get(service)!.port
  const network = await createNetwork(docker, prefix, caseLabels, 'overlay')
  const services: Docker.Service[] = []
  const watcher = new TaskWatcher(docker)
  let entry: { host: string; port: number } | null = null

  // The gateway endpoint is the network's, not listed in the container's own networks.
  const gatewayAddress = async (containerId: string): Promise<string | null> => {
    const gateway = (await docker.getNetwork(GATEWAY_NETWORK).inspect()) as {
      Containers?: Record<string, { IPv4Address?: string }>
    }
    const full = Object.keys(gateway.Containers ?? {}).find(id => id.startsWith(containerId))
    return full ? (gateway.Containers![full].IPv4Address?.split('/')[0] ?? null) : null
  }

  const spec = (c: ContainerCommand, replicas: number): Docker.CreateServiceOptions => {
    const s = byName.get(c.service)!
    const constraints = [...(s.deploy?.placement.constraints ?? [])]
    if (c.service === topology.load.service) constraints.push(`node.id==${place.nodeId}`)
    return serviceSpec({
      name: `${prefix}-${c.service}`,
      labels: { ...caseLabels, [LABEL.service]: c.service },
      container: {
        Image: images.get(c.service)!,
        ...(c.argv ? { Args: c.argv } : {}),
        Env: Object.entries(c.env).map(([k, v]) => `${k}=${v}`)
      },
      replicas,
      constraints,
      cpus: c.cpus,
      memoryBytes: c.memoryBytes,
      network: network.id,
      alias: c.service,
      endpointMode: s.deploy?.endpoint_mode ?? place.endpointMode
    })
  }

  // A task's gateway endpoint is attached a moment after its container exists. The load's
  // service runs on this node, so its address must come; another's may be on another node.
  const gatewayAddressWithin = async (slot: TaskSlot, ms: number): Promise<string | null> => {
    const id = await started(slot)
    let ended = false
    void slot.exited.then(() => (ended = true))
    for (const until = Date.now() + ms; ; await sleep(100)) {
      const host = await gatewayAddress(id)
      if (host || ended || Date.now() > until) return host
    }
  }

  const readiness = async (c: ContainerCommand, slot: TaskSlot): Promise<void> => {
    const onThisNode = c.service === topology.load.service
    const host = await gatewayAddressWithin(slot, onThisNode ? 30_000 : 2_000)
    if (onThisNode && !host) throw new Error(`${c.instance}: no address on ${GATEWAY_NETWORK}`)
    if (host && c.service === topology.load.service && c.replica === 0) {
      entry = { host, port: c.port }
    }
    if ('log' in c.ready) return slot.output.ready
    // A task on another node is out of this host's reach: running is as ready as it can tell.
    if (!host) return
    await probeUntilReady(host, c.port, 'http' in c.ready ? c.ready.http : null, slot.exited)
  }

  return {
    // One spec serves every replica of a service: they share the first replica's command.
    order: containerStartOrder(topology, {
      port,
      addr: service => `${service}:${port(service)}`,
      addrs: service => [`tasks.${service}:${port(service)}`]
    }),
    get frontend() {
      if (!entry) throw new Error(`${topology.id}: ${topology.load.service} has not started`)
      return entry
    },
    routeDumpName: '',
    async startService(all): Promise<Instance[]> {
      const commands = all.flatMap(c => (c.kind === 'container' ? [c] : []))
      const first = commands[0]
      const created = await docker.createService(spec(first, commands.length))
      services.push(created)
      const slots = commands.map(
        c =>
          new TaskSlot(
            c.instance,
            new LogTail(
              path.join(logDir, `${c.instance}.log`),
              'log' in c.ready ? c.ready.log : undefined
            ),
            images.get(c.service)!
          )
      )
      watcher.watch(created.id, slots)
      return slots.map((slot, i) => ({
        name: slot.name,
        service: first.service,
        output: slot.output,
        exited: slot.exited,
        get node() {
          return slot.node
        },
        // A readiness that cannot be told stays pending: the start's deadline then names it.
        ready: readiness(commands[i], slot).catch((err: Error) => {
          slot.output.note(`[swarm] cannot tell whether it is ready: ${err.message}`)
          return new Promise<void>(() => undefined)
        })
      }))
    },
    async runScript() {
      throw new Error(`${topology.id}: a generic topology runs no scripts`)
    },
    async readRouteDump() {
      return ''
    },
    async remove() {
      watcher.stop()
      await removeServices(docker, services)
      await removeNetworkWhenFree(network)
    }
  }
}
