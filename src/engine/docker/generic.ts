import type Docker from 'dockerode'
import * as path from 'node:path'
import {
  containerStartOrder,
  type ContainerAddressing,
  type ContainerCommand
} from '../../topology/containers'
import type { HttpTopology } from '../../topology/schema'
import { settleAll, STOP_GRACE_MS, type DeploymentDriver, type Instance } from '../lifecycle'
import { LogTail } from '../log-tail'
import { probeUntilReady } from '../probe'
import { removeContainer, startContainer } from './container'
import type { DaemonContext } from './daemon'
import { ensureServiceImages } from './image'
import { LABEL } from './labels'
import { hostLimits } from './limits'
import { createNetwork, removeNetwork } from './network'

/**
 * A generic topology in containers on a bridge network of its own. Peers reach a service by its
 * name (Docker's DNS answers with every replica) or one replica by `<service>-<n>`; this host
 * reaches each container at its address on the bridge, so no port is published and no userland
 * proxy sits in the measured path.
 */
export async function openGenericContainers(
  ctx: DaemonContext,
  topology: HttpTopology,
  index: number,
  logDir: string
): Promise<DeploymentDriver> {
  const { docker, labels } = ctx
  const images = await ensureServiceImages(docker, topology.services, ctx.log)
  const prefix = ctx.prefix(topology.id, index)
  const caseLabels = { ...labels, [LABEL.caseId]: topology.id }
  const byName = new Map(topology.services.map(s => [s.name, s]))
  const portOf = (service: string): number => byName.get(service)!.port
  const addressing: ContainerAddressing = {
    port: portOf,
    addr: service => `${service}:${portOf(service)}`,
    addrs: service =>
      Array.from(
        { length: byName.get(service)!.replicas },
        (_, r) => `${service}-${r}:${portOf(service)}`
      )
  }
  const network = await createNetwork(docker, prefix, caseLabels)
  const containers: Docker.Container[] = []
  let entry: { host: string; port: number } | null = null
  const start = async (c: ContainerCommand): Promise<Instance> => {
    const pattern = 'log' in c.ready ? c.ready.log : undefined
    const output = new LogTail(path.join(logDir, `${c.instance}.log`), pattern)
    const { container, exited } = await startContainer(
      docker,
      {
        name: `${prefix}-${c.instance}`,
        Hostname: c.instance,
        Image: images.get(c.service)!,
        ...(c.argv ? { Cmd: c.argv } : {}),
        Env: Object.entries(c.env).map(([k, v]) => `${k}=${v}`),
        Labels: { ...caseLabels, [LABEL.service]: c.service },
        StopTimeout: STOP_GRACE_MS / 1000,
        HostConfig: { NetworkMode: network.id, Init: true, ...hostLimits(c.cpus, c.memoryBytes) },
        NetworkingConfig: {
          EndpointsConfig: { [network.id]: { Aliases: [c.instance, c.service] } }
        }
      },
      output
    )
    containers.push(container)
    const info = await container.inspect()
    const host = Object.values(info.NetworkSettings.Networks)[0]?.IPAddress
    if (!host) throw new Error(`${c.instance}: the container has no address on its network`)
    if (c.service === topology.load.service && c.replica === 0) entry = { host, port: c.port }
    const reason = exited.then(code => `exited (code ${code})`)
    const ready =
      'log' in c.ready
        ? output.ready
        : probeUntilReady(host, c.port, 'http' in c.ready ? c.ready.http : null, reason)
    return {
      name: c.instance,
      service: c.service,
      output,
      exited: reason,
      node: null,
      ready
    }
  }
  return {
    order: containerStartOrder(topology, addressing),
    get frontend() {
      if (!entry) throw new Error(`${topology.id}: ${topology.load.service} has not started`)
      return entry
    },
    routeDumpName: '',
    startService: commands =>
      settleAll(commands, async c => {
        if (c.kind !== 'container') throw new Error(`${c.instance}: not a generic service`)
        return start(c)
      }),
    async runScript() {
      throw new Error(`${topology.id}: a generic topology runs no scripts`)
    },
    async readRouteDump() {
      return ''
    },
    async remove() {
      await Promise.allSettled(containers.map(c => removeContainer(c)))
      await removeNetwork(network)
    }
  }
}
