import type Docker from 'dockerode'
import type { GnesMeta } from '../gnes-meta'
import type { Addressing } from '../../topology/commands'
import type { ContainerAddressing } from '../../topology/containers'
import type { GnesTopology, HttpTopology } from '../../topology/schema'
import { LifecycleEngine } from '../lifecycle'
import { settleAll } from '../settle'
import type { Plan } from '../plan/types'
import type { Platform, Placement, Started } from '../platform'
import type { Engine } from '../types'
import { readContainerFile } from './archive'
import { containerCounters } from './usage'
import { sweep } from './cleanup'
import { containerAddressing } from './command'
import { removeContainer, startContainer } from './container'
import { DaemonContext, type DockerEngineOptions } from './daemon'
import { untilHealthy } from './health'
import { gatewayOf, removeNetworkWhenFree } from './network'
import { removeVolumes, textFiles } from './volumes'
import { openPlace } from './place'
import { containerSpec } from './spec'

interface DockerEngine extends Engine {
  readonly kind: 'docker'
}

/**
 * Each topology in containers on a user-defined bridge network of its own. Peers reach a service
 * by its name or an alias (Docker's DNS answers with every replica) or one replica by
 * `<service>-<n>`; a health check is run by the engine in the container until it is ready, and
 * Docker runs none (health.ts); the load client runs in a container on that network, and this host
 * reaches a container at its address on the bridge, so no port is published and no userland
 * proxy sits in the measured path.
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
    // The topology's check refuses an address of a service without a port.
    const portOf = (service: string): number | null => byName.get(service)!.port ?? null
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

  async open(plan: Plan, index: number): Promise<Placement> {
    const { docker } = this.ctx
    const place = await openPlace(this.ctx, plan, index, 'bridge')
    const { network } = place
    const containers: Docker.Container[] = []
    return {
      start: async (service, io) => {
        await place.fillCopies(service)
        await settleAll(service.instances, async i => {
          const name = `${place.prefix}-${i.name}`
          const check = service.healthcheck
          const { container, exited } = await startContainer(
            docker,
            containerSpec(service, i, {
              name,
              image: place.image(service),
              labels: place.labels(service.name),
              network: network.id,
              volumes: place.volumes,
              ...place.limits(service)
            }),
            io.output(i),
            textFiles(service)
          )
          const startedMs = performance.now()
          containers.push(container)
          let address: Promise<string> | undefined
          const started: Started = {
            exited: exited.then(code => `exited (code ${code})`),
            exitCode: exited,
            node: null,
            address: () =>
              (address ??= container.inspect().then(info => {
                const host = Object.values(info.NetworkSettings.Networks)[0]?.IPAddress
                if (!host) throw new Error(`${i.name}: the container has no address on its network`)
                return host
              })),
            ...(check
              ? { healthy: () => untilHealthy(container, i.name, check, startedMs, exited) }
              : {}),
            readFile: file => readContainerFile(container, file),
            fileName: file => `${name}:${file}`,
            counters: () => containerCounters(docker, container.id)
          }
          void io.started(i, started)
        })
      },
      runScript: place.runScript,
      traceHost: () => gatewayOf(network),
      async remove() {
        await Promise.allSettled(containers.map(c => removeContainer(c)))
        // A container another removal took first (409 to ours) may still hold its endpoint.
        await removeNetworkWhenFree(network)
        await removeVolumes(docker, place.volumes.labels)
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
