import type Docker from 'dockerode'
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
