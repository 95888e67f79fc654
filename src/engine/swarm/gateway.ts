import type Docker from 'dockerode'
import { setTimeout as sleep } from 'node:timers/promises'
import type { TaskSlot } from './tasks'

/** Where this host reaches a container of a task on this node: its address on the gateway bridge. */
export const GATEWAY_NETWORK = 'docker_gwbridge'

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

/** The gateway endpoint is the network's, not listed in the container's own networks. */
async function gatewayAddress(docker: Docker, containerId: string): Promise<string | null> {
  const gateway = (await docker.getNetwork(GATEWAY_NETWORK).inspect()) as {
    Containers?: Record<string, { IPv4Address?: string }>
  }
  const full = Object.keys(gateway.Containers ?? {}).find(id => id.startsWith(containerId))
  return full ? (gateway.Containers![full].IPv4Address?.split('/')[0] ?? null) : null
}

/**
 * The address of `slot`'s container on the gateway bridge, or null when it has none within `ms`
 * (its task may run on another node). A task's gateway endpoint is attached a moment after its
 * container exists.
 */
export async function gatewayAddressWithin(
  docker: Docker,
  slot: TaskSlot,
  ms: number
): Promise<string | null> {
  const id = await started(slot)
  let ended = false
  void slot.exited.then(() => (ended = true))
  for (const until = Date.now() + ms; ; await sleep(100)) {
    const host = await gatewayAddress(docker, id)
    if (host || ended || Date.now() > until) return host
  }
}

/**
 * The address this node advertises to the swarm: tasks on every node reach it (a gateway bridge
 * is each node's own), so it is where a receiver on this host must listen for all of them.
 */
export async function nodeAddress(docker: Docker): Promise<string> {
  const info = (await docker.info()) as { Swarm?: { NodeAddr?: string } }
  const address = info.Swarm?.NodeAddr
  if (!address) throw new Error('the swarm manager reports no node address')
  return address
}
