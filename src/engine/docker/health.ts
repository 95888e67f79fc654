import type Docker from 'dockerode'
import { setTimeout as sleep } from 'node:timers/promises'
import { ServiceFailure } from '../types'

const POLL_MS = 200
/** Characters of the check's last output a failure quotes. */
const OUTPUT_CHARS = 1000

type Health = NonNullable<Docker.ContainerInspectInfo['State']['Health']>

/** The health check's last run, for a failure: its exit code and (the end of) its output. */
export function lastCheck(health: Pick<Health, 'Log'>): string {
  const last = health.Log?.at(-1)
  if (!last) return 'its health check has not reported yet'
  const output = last.Output.trim().slice(-OUTPUT_CHARS)
  return `its health check exited ${last.ExitCode}${output ? `: ${output}` : ' without output'}`
}

/**
 * Resolves once Docker reports the container `healthy`; rejects with a ServiceFailure naming
 * `instance` and the check's last output once it reports `unhealthy`. Polls until `until`
 * settles (the container's exit) or it stops running, then stays pending: the exit is reported
 * as such.
 */
export async function untilHealthy(
  container: Docker.Container,
  instance: string,
  until: Promise<unknown>
): Promise<void> {
  let over = false
  void until.finally(() => (over = true)).catch(() => undefined)
  while (!over) {
    const state = (await container.inspect().catch(() => null))?.State
    // A container that stopped is unhealthy by Docker's account; its exit is the failure to tell.
    if (state && !state.Running) break
    const health = state?.Health
    if (health?.Status === 'healthy') return
    if (health?.Status === 'unhealthy') {
      throw new ServiceFailure(instance, `is unhealthy: ${lastCheck(health)}`, '')
    }
    await sleep(POLL_MS)
  }
  return new Promise(() => undefined)
}
