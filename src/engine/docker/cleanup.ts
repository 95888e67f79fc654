import type Docker from 'dockerode'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Log } from '../../log'
import { dockerAvailable, dockerClient, statusOf } from './client'
import { removeContainer } from './container'
import { LABEL, labelFilter } from './labels'
import { NETWORK_BUSY_MS, removeNetworkWhenFree } from './network'
import { removeVolumes } from './volumes'

interface SweepOptions {
  /** Only what this suite run created. */
  runId?: string
  /** Only what this repository's runs created. */
  repository?: string
  /** Only what is older than this many milliseconds. */
  olderThan?: number
}

export interface Swept {
  containers: number
  networks: number
  services: number
  configs: number
  secrets: number
  volumes: number
}

/** Removal passes of one sweep when it removed Swarm services (see `sweep`). */
const SWEEP_PASSES = 4

/**
 * A removed service's tasks stop and their containers go asynchronously; a container listed before
 * that would be missed. Waits (at most NETWORK_BUSY_MS) until no task of the services is left.
 */
async function tasksGone(docker: Docker, serviceIds: string[]): Promise<void> {
  const until = Date.now() + NETWORK_BUSY_MS
  const filters = JSON.stringify({ service: serviceIds })
  while (Date.now() < until) {
    const tasks = (await docker.listTasks({ filters }).catch(() => [])) as unknown[]
    if (tasks.length === 0) return
    await sleep(250)
  }
}

async function swarmManager(docker: Docker): Promise<boolean> {
  const info = (await docker.info()) as { Swarm?: { ControlAvailable?: boolean } }
  return info.Swarm?.ControlAvailable === true
}

const ignoreGone = (err: unknown): void => {
  if (statusOf(err) !== 404) throw err
}

/**
 * Removes labelled Swarm services, configs and secrets (on a manager), containers (running or not) and
 * then their networks. Used by every Docker-based engine's shutdown, the action's post step and
 * the `cleanup` command.
 */
export async function sweep(
  options: SweepOptions = {},
  docker: Docker = dockerClient()
): Promise<Swept> {
  const labels: Record<string, string> = { [LABEL.tool]: 'true' }
  if (options.runId) labels[LABEL.runId] = options.runId
  if (options.repository) labels[LABEL.repository] = options.repository
  const filters = labelFilter(labels)
  const cutoff = Date.now() - (options.olderThan ?? 0)
  const old = (createdMs: number) => options.olderThan === undefined || createdMs <= cutoff
  const byDate = <T extends { CreatedAt?: string }>(items: T[]) =>
    items.filter(i => old(Date.parse(i.CreatedAt ?? '')))

  const manager = await swarmManager(docker)
  const services = manager ? byDate(await docker.listServices({ filters })) : []
  await Promise.all(services.map(s => docker.getService(s.ID).remove().catch(ignoreGone)))
  if (services.length)
    await tasksGone(
      docker,
      services.map(s => s.ID)
    )
  // A task container of a removed service can still appear while Swarm winds the service down:
  // pass again until a pass finds nothing (a few passes at most).
  const containers: Docker.ContainerInfo[] = []
  const networks: Docker.NetworkInspectInfo[] = []
  for (let pass = 0; pass < SWEEP_PASSES; pass++) {
    const found = (await docker.listContainers({ all: true, filters })).filter(c =>
      old(c.Created * 1000)
    )
    await Promise.all(found.map(c => removeContainer(docker.getContainer(c.Id))))
    const nets = (await docker.listNetworks({ filters })).filter(n => old(Date.parse(n.Created)))
    await Promise.all(nets.map(n => removeNetworkWhenFree(docker.getNetwork(n.Id))))
    containers.push(...found.filter(c => !containers.some(k => k.Id === c.Id)))
    networks.push(...nets.filter(n => !networks.some(k => k.Id === n.Id)))
    if ((found.length === 0 && nets.length === 0) || services.length === 0) break
    await sleep(500)
  }
  // Volumes once their containers are gone (a volume in use is not removed).
  const volumes = await removeVolumes(docker, labels, old)
  const configs = manager ? byDate(await docker.listConfigs({ filters })) : []
  await Promise.all(configs.map(c => docker.getConfig(c.ID).remove().catch(ignoreGone)))
  // dockerode's types give a secret no creation time; the Engine API does.
  const secrets = manager
    ? byDate((await docker.listSecrets({ filters })) as { ID: string; CreatedAt?: string }[])
    : []
  await Promise.all(secrets.map(c => docker.getSecret(c.ID).remove().catch(ignoreGone)))
  return {
    containers: containers.length,
    networks: networks.length,
    services: services.length,
    configs: configs.length,
    secrets: secrets.length,
    volumes
  }
}

/**
 * "3 containers and 1 networks", plus volumes, Swarm services, configs and secrets when there
 * were any.
 */
export function describeSweep(removed: Swept): string {
  const swarm = removed.services + removed.configs + removed.secrets
  const extra = swarm
    ? `, ${removed.services} services, ${removed.configs} configs and ${removed.secrets} secrets`
    : ''
  const volumes = removed.volumes ? `, ${removed.volumes} volumes` : ''
  return `${removed.containers} containers and ${removed.networks} networks${volumes}${extra}`
}

/**
 * The Docker and Swarm engines' cleanup after a run: a sweep of each run id they kept, which
 * takes the run's containers, networks and volumes, and on a Swarm manager its services, configs
 * and secrets.
 */
export async function cleanUpRun({ runIds }: { runIds: string[] }, log: Log): Promise<void> {
  // Each engine keeps its run id before it creates anything: no id, nothing was created.
  if (!runIds.length) return
  if (!(await dockerAvailable())) {
    log.warn(`no Docker daemon answers; cannot clean up run ${runIds.join(', ')}`)
    return
  }
  for (const runId of runIds) {
    log.info(`cleanup of run ${runId}: removed ${describeSweep(await sweep({ runId }))}`)
  }
}
