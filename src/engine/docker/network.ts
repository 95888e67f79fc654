import type Docker from 'dockerode'
import { setTimeout as sleep } from 'node:timers/promises'
import { statusOf } from './client'

/**
 * A user-defined network: Docker's DNS resolves container names and aliases on it. On Swarm it is
 * an attachable overlay, so the load client's plain container can join the services on it.
 */
export async function createNetwork(
  docker: Docker,
  name: string,
  labels: Record<string, string>,
  driver: 'bridge' | 'overlay' = 'bridge'
): Promise<Docker.Network> {
  return docker.createNetwork({
    Name: name,
    Driver: driver,
    Attachable: driver === 'overlay',
    CheckDuplicate: true,
    Labels: labels
  })
}

/** Removes a network; one already gone is fine. */
export async function removeNetwork(network: Docker.Network): Promise<void> {
  try {
    await network.remove()
  } catch (err) {
    // A swarm manager may answer 500 "network … not found" for an overlay that went meanwhile.
    if (statusOf(err) !== 404 && !/not found/.test((err as Error).message)) throw err
  }
}

/** A network is in use until the tasks of its removed Swarm services are gone; retry that long. */
export const NETWORK_BUSY_MS = 30_000

/**
 * Removes a network, retrying while it is still in use: by the tasks of services just removed
 * (a Swarm manager answers 400 "in use by task") or by endpoints going away (403 "has active
 * endpoints", 409): a container whose removal another caller started (409 to us) is still
 * attached when our removal returns.
 */
export async function removeNetworkWhenFree(network: Docker.Network): Promise<void> {
  const until = Date.now() + NETWORK_BUSY_MS
  for (;;) {
    try {
      return await removeNetwork(network)
    } catch (err) {
      if (![400, 403, 409].includes(statusOf(err) ?? 0)) throw err
      if (Date.now() > until) throw err
      await sleep(250)
    }
  }
}

/**
 * The network's gateway: this host's address on it, which its containers reach and nothing outside
 * the network does (a bridge's; on Swarm, the manager's end of the gateway bridge instead).
 */
export async function gatewayOf(network: Docker.Network): Promise<string> {
  const info = (await network.inspect()) as { IPAM?: { Config?: { Gateway?: string }[] } }
  const gateway = info.IPAM?.Config?.find(c => c.Gateway)?.Gateway
  if (!gateway) throw new Error(`network ${network.id}: no gateway address to receive traces on`)
  return gateway
}
