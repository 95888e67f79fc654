import type Docker from 'dockerode'
import { dockerClient } from './client'
import { removeContainer } from './container'
import { LABEL, labelFilter } from './labels'
import { removeNetwork } from './network'

export interface SweepOptions {
  /** Only what this suite run created. */
  runId?: string
  /** Only what this repository's runs created. */
  repository?: string
  /** Only what is older than this many milliseconds. */
  olderThan?: number
}

/**
 * Removes labelled containers (running or not) and then their networks. Used by the engine's
 * shutdown, the action's post step and the `cleanup` command.
 */
export async function sweep(
  options: SweepOptions = {},
  docker: Docker = dockerClient()
): Promise<{ containers: number; networks: number }> {
  const labels: Record<string, string> = { [LABEL.tool]: 'true' }
  if (options.runId) labels[LABEL.runId] = options.runId
  if (options.repository) labels[LABEL.repository] = options.repository
  const filters = labelFilter(labels)
  const cutoff = Date.now() - (options.olderThan ?? 0)
  const old = (createdMs: number) => options.olderThan === undefined || createdMs <= cutoff

  const containers = (await docker.listContainers({ all: true, filters })).filter(c =>
    old(c.Created * 1000)
  )
  await Promise.all(containers.map(c => removeContainer(docker.getContainer(c.Id))))
  const networks = (await docker.listNetworks({ filters })).filter(n => old(Date.parse(n.Created)))
  await Promise.all(networks.map(n => removeNetwork(docker.getNetwork(n.Id))))
  return { containers: containers.length, networks: networks.length }
}
