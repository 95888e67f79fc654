import type Docker from 'dockerode'
import { statusOf } from './client'

/** A user-defined bridge network: Docker's DNS resolves container names and aliases on it. */
export async function createNetwork(
  docker: Docker,
  name: string,
  labels: Record<string, string>
): Promise<Docker.Network> {
  return docker.createNetwork({
    Name: name,
    Driver: 'bridge',
    CheckDuplicate: true,
    Labels: labels
  })
}

/** Removes a network; one already gone is fine. */
export async function removeNetwork(network: Docker.Network): Promise<void> {
  try {
    await network.remove()
  } catch (err) {
    if (statusOf(err) !== 404) throw err
  }
}
