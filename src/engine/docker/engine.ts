import type Docker from 'dockerode'
import type { GnesMeta } from '../gnes-meta'
import type { Addressing } from '../../topology/commands'
import type { ContainerAddressing } from '../../topology/containers'
import type { GnesTopology, HttpTopology } from '../../topology/schema'
import { LifecycleEngine, settleAll, STOP_GRACE_MS } from '../lifecycle'
import type { Plan } from '../plan/types'
import type { Platform, Site, Started } from '../platform'
import type { Engine } from '../types'
import { readContainerFile } from './archive'
import { sweep } from './cleanup'
import { containerAddressing } from './command'
import { removeContainer, startContainer } from './container'
import { DaemonContext, type DockerEngineOptions } from './daemon'
import { hostLimits } from './limits'
import { removeNetwork } from './network'
import { openPlace } from './place'

interface DockerEngine extends Engine {
  readonly kind: 'docker'
}

/**
 * Each topology in containers on a user-defined bridge network of its own. Peers reach a service
 * by its name (Docker's DNS answers with every replica) or one replica by `<service>-<n>`; the
 * load client runs in a container on that network, and this host reaches a container at its
 * address on the bridge, so no port is published and no userland proxy sits in the measured path.
 */
class DockerPlatform implements Platform<'docker'> {
  readonly kind = 'docker' as const

  constructor(private readonly ctx: DaemonContext) {}

  get runId(): string {
    return this.ctx.runId
  }

  async prepare(gnes: boolean): Promise<GnesMeta | null> {
    return this.ctx.prepare(gnes)
  }

  async gnesAddressing(topology: GnesTopology): Promise<Addressing> {
    return containerAddressing(topology)
  }

  async httpAddressing(topology: HttpTopology): Promise<ContainerAddressing> {
    const byName = new Map(topology.services.map(s => [s.name, s]))
    const portOf = (service: string): number => byName.get(service)!.port
    return {
      port: portOf,
      addr: service => `${service}:${portOf(service)}`,
      addrs: service =>
        Array.from(
          { length: byName.get(service)!.replicas },
          (_, r) => `${service}-${r}:${portOf(service)}`
        )
    }
  }

  async open(plan: Plan, index: number): Promise<Site> {
    const { docker } = this.ctx
    const place = await openPlace(this.ctx, plan, index, 'bridge')
    const { network } = place
    const containers: Docker.Container[] = []
    return {
      start: (service, io) =>
        settleAll(service.instances, async i => {
          const name = `${place.prefix}-${i.name}`
          const gnes = service.runs === 'gnes'
          const { cpus, memoryBytes } = place.limits(service)
          const { container, exited } = await startContainer(
            docker,
            {
              name,
              Hostname: i.name,
              Image: place.image(service),
              ...(gnes ? { Entrypoint: ['gnes'] } : {}),
              ...(i.argv ? { Cmd: i.argv } : {}),
              Env: gnes
                ? ['PYTHONUNBUFFERED=1']
                : Object.entries(i.env).map(([k, v]) => `${k}=${v}`),
              Labels: place.labels(service.name),
              StopTimeout: STOP_GRACE_MS / 1000,
              // An init as PID 1 passes SIGTERM on, so a stop is quick and clean.
              HostConfig: { NetworkMode: network.id, Init: true, ...hostLimits(cpus, memoryBytes) },
              NetworkingConfig: {
                EndpointsConfig: { [network.id]: { Aliases: [i.name, service.name] } }
              }
            },
            io.output(i)
          )
          containers.push(container)
          let address: Promise<string> | undefined
          const started: Started = {
            exited: exited.then(code => `exited (code ${code})`),
            node: null,
            address: () =>
              (address ??= container.inspect().then(info => {
                const host = Object.values(info.NetworkSettings.Networks)[0]?.IPAddress
                if (!host) throw new Error(`${i.name}: the container has no address on its network`)
                return host
              })),
            readFile: file => readContainerFile(container, file),
            fileName: file => `${name}:${file}`
          }
          void io.started(i, started)
        }).then(() => undefined),
      runScript: place.runScript,
      async remove() {
        await Promise.allSettled(containers.map(c => removeContainer(c)))
        await removeNetwork(network)
      }
    }
  }

  async sweep(): Promise<void> {
    await sweep({ runId: this.ctx.runId }, this.ctx.docker)
  }
}

export function createDockerEngine(options: DockerEngineOptions): DockerEngine {
  const ctx = new DaemonContext('docker', options)
  return new LifecycleEngine(new DockerPlatform(ctx), ctx.log)
}
