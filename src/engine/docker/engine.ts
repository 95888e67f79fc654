import type Docker from 'dockerode'
import * as path from 'node:path'
import type { GnesMeta } from '../gnes-meta'
import { READY_PATTERN, startOrder } from '../../topology/commands'
import type { Topology } from '../../topology/schema'
import {
  LifecycleEngine,
  settleAll,
  STOP_GRACE_MS,
  type DeploymentDriver,
  type Instance,
  type Platform
} from '../lifecycle'
import { LogTail } from '../log-tail'
import type { Engine } from '../types'
import { readContainerFile } from './archive'
import { sweep } from './cleanup'
import { containerAddressing, GRPC_PORT, ROUTE_DUMP } from './command'
import { removeContainer, scriptRunner, startContainer } from './container'
import { DaemonContext, type DockerEngineOptions } from './daemon'
import { openGenericContainers } from './generic'
import { LABEL } from './labels'
import { hostLimits } from './limits'
import { createNetwork, removeNetwork } from './network'

interface DockerEngine extends Engine {
  readonly kind: 'docker'
}

/**
 * Each topology in containers on a user-defined bridge network of its own; the load client runs
 * in a container on that network too, so no host port is published.
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

  async open(topology: Topology, index: number, logDir: string): Promise<DeploymentDriver> {
    if (topology.kind === 'http') return openGenericContainers(this.ctx, topology, index, logDir)
    const { docker, labels } = this.ctx
    const image = this.ctx.requireImage()
    const prefix = this.ctx.prefix(topology.id, index)
    const caseLabels = { ...labels, [LABEL.caseId]: topology.id }
    const limits = hostLimits(this.ctx.cpus, this.ctx.memory)
    const network = await createNetwork(docker, prefix, caseLabels)
    const containers: Docker.Container[] = []
    let frontend: Docker.Container | undefined
    return {
      order: startOrder(topology, containerAddressing(topology)),
      frontend: {
        host: topology.services.find(s => s.role === 'frontend')!.name,
        port: GRPC_PORT
      },
      routeDumpName: `${prefix}-${topology.services.find(s => s.role === 'frontend')!.name}-0:${ROUTE_DUMP}`,
      startService: commands =>
        settleAll(commands, async (c): Promise<Instance> => {
          if (c.kind !== 'gnes') throw new Error(`${c.instance}: not a GNES service`)
          const output = new LogTail(path.join(logDir, `${c.instance}.log`), READY_PATTERN[c.role])
          const { container, exited } = await startContainer(
            docker,
            {
              name: `${prefix}-${c.instance}`,
              Hostname: c.instance,
              Image: image,
              Entrypoint: ['gnes'],
              Cmd: c.argv,
              Env: ['PYTHONUNBUFFERED=1'],
              Labels: { ...caseLabels, [LABEL.service]: c.service },
              StopTimeout: STOP_GRACE_MS / 1000,
              // An init as PID 1 passes SIGTERM on to GNES, so a stop is quick and clean.
              HostConfig: { NetworkMode: network.id, Init: true, ...limits },
              NetworkingConfig: {
                EndpointsConfig: { [network.id]: { Aliases: [c.instance, c.service] } }
              }
            },
            output
          )
          containers.push(container)
          if (c.role === 'frontend') frontend = container
          const reason = exited.then(code => `exited (code ${code})`)
          return {
            name: c.instance,
            service: c.service,
            output,
            exited: reason,
            node: null,
            ready: output.ready
          }
        }),
      runScript: scriptRunner(docker, { prefix, image, labels: caseLabels, network: network.id }),
      readRouteDump: async () => (frontend ? readContainerFile(frontend, ROUTE_DUMP) : ''),
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
