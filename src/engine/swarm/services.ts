import type Docker from 'dockerode'
import { setTimeout as sleep } from 'node:timers/promises'
import { statusOf } from '../docker/client'
import { STOP_GRACE_MS } from '../lifecycle'

const TASKS_GONE_MS = 30_000

/**
 * Removes the services and waits until their tasks are reaped (Swarm deletes a removed service's
 * task once its node reports it shut down, container removed or never created) and no container
 * of theirs is left on this node; bounded, as the network removal after it retries anyway.
 */
export async function removeServices(docker: Docker, services: Docker.Service[]): Promise<void> {
  if (!services.length) return
  const filters = JSON.stringify({ service: services.map(s => s.id) })
  const tasks = ((await docker.listTasks({ filters }).catch(() => [])) as { ID: string }[]).map(t =>
    docker.getTask(t.ID)
  )
  await Promise.allSettled(
    services.map(s =>
      s.remove().catch(err => {
        if (statusOf(err) !== 404) throw err
      })
    )
  )
  const reaped = async (task: Docker.Task) => {
    try {
      await task.inspect()
      return false
    } catch (err) {
      return statusOf(err) === 404
    }
  }
  const containers = (s: Docker.Service) =>
    docker.listContainers({
      all: true,
      filters: JSON.stringify({ label: [`com.docker.swarm.service.id=${s.id}`] })
    })
  const until = Date.now() + TASKS_GONE_MS
  while (Date.now() < until) {
    const gone = await Promise.all(tasks.map(reaped))
    const left = await Promise.all(services.map(containers))
    if (gone.every(Boolean) && left.every(l => l.length === 0)) return
    await sleep(250)
  }
}

/** What differs between the Swarm services of a GNES and of a generic topology. */
export interface ServiceSpecInput {
  name: string
  /** The deployment's labels and the service's own. */
  labels: Record<string, string>
  container: {
    Image: string
    Command?: string[]
    Args?: string[]
    Env: string[]
    HealthCheck?: Docker.HealthConfig
    User?: string
    Dir?: string
    StopSignal?: string
    Hosts?: string[]
    Ulimits?: { Name: string; Soft: number; Hard: number }[]
    CapabilityDrop?: string[]
    /** Swarm's no_new_privs bit (Engine API 1.44), which dockerode's types lack. */
    Privileges?: { NoNewPrivileges: boolean }
    Mounts?: Docker.MountSettings[]
    Secrets?: object[]
    Configs?: object[]
  }
  replicas: number
  constraints: string[]
  cpus: number | null
  memoryBytes: number | null
  /** The most processes a task may hold, or null: unlimited. */
  pids: number | null
  network: string
  /** The names peers resolve on the network: the service's, then its aliases. */
  aliases: string[]
  endpointMode: string
}

/**
 * A Swarm service as this tool runs every one: an init as PID 1 (a stop is quick and clean), no
 * restart (a dead service fails the case; Swarm must not restart it behind our back), the limits,
 * the placement and the endpoint mode asked for. Without restarts a replicated service's task
 * runs once, which is what a one-shot job (a dependency with condition `completed`) needs too: it
 * is a replicated service like the others, done when its tasks complete with exit code 0.
 */
export function serviceSpec(o: ServiceSpecInput): Docker.CreateServiceOptions {
  return {
    Name: o.name,
    Labels: o.labels,
    TaskTemplate: {
      ContainerSpec: {
        ...o.container,
        Labels: o.labels,
        Init: true,
        StopGracePeriod: STOP_GRACE_MS * 1e6
      },
      RestartPolicy: { Condition: 'none' },
      Placement: { Constraints: o.constraints },
      Resources: {
        Limits: {
          ...(o.cpus ? { NanoCPUs: Math.round(o.cpus * 1e9) } : {}),
          ...(o.memoryBytes ? { MemoryBytes: o.memoryBytes } : {}),
          ...(o.pids ? { Pids: o.pids } : {})
        }
      },
      Networks: [{ Target: o.network, Aliases: o.aliases }]
    },
    Mode: { Replicated: { Replicas: o.replicas } },
    EndpointSpec: { Mode: o.endpointMode }
  } as Docker.CreateServiceOptions
}
