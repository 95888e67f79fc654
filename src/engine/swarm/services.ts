import type Docker from 'dockerode'
import { setTimeout as sleep } from 'node:timers/promises'
import { statusOf } from '../docker/client'

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
