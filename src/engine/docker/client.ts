import Docker from 'dockerode'
import { withTimeout } from '../deadline'

/** A client for the daemon DOCKER_HOST names (docker-modem reads it), else the local socket. */
export function dockerClient(): Docker {
  return new Docker()
}

/** Where the client talks to, for messages. */
export function daemonAddress(): string {
  return process.env.DOCKER_HOST || 'unix:///var/run/docker.sock'
}

/** True when a daemon answers a ping within `timeoutMs` (respects DOCKER_HOST). */
export async function dockerAvailable(timeoutMs = 3000): Promise<boolean> {
  try {
    await withTimeout(dockerClient().ping(), timeoutMs, 'docker ping')
    return true
  } catch {
    return false
  }
}

/** HTTP status of an Engine API error, if it has one. */
export function statusOf(err: unknown): number | undefined {
  return (err as { statusCode?: number }).statusCode
}
