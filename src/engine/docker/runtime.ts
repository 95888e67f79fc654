import { resetAdvice } from '../../topology/compose/keys'
import type { ServicePlan } from '../plan/types'

/**
 * Whether the daemon can run each service's `runtime`, asked before a deployment creates
 * anything: a name the daemon has registered (`docker info`'s Runtimes), or a containerd shim's
 * full name (`io.containerd.<name>.<version>`), which Docker runs without registering it when the
 * shim is on the daemon's PATH. A Swarm service has no runtime of its own to choose. Pure.
 */

/** A containerd shim's full name, which the daemon looks up on its PATH. */
const SHIM = /^io\.containerd\.[a-z0-9_-]+\.v\d+$/

const REMOVE = `or ${resetAdvice('runtime')}`

/** The first service whose runtime cannot run here, in words; null when every one can. */
export function runtimeProblem(
  services: readonly ServicePlan[],
  registered: ReadonlySet<string>,
  swarm: boolean
): string | null {
  for (const service of services) {
    const runtime = service.settings?.runtime
    if (!runtime) continue
    const asks = `service '${service.name}' runs with the runtime '${runtime}'`
    if (swarm) {
      return `${asks}, and a Swarm service runs with the daemon's default one: run it with engine: docker, ${REMOVE}`
    }
    if (!registered.has(runtime) && !SHIM.test(runtime)) {
      const has = [...registered].join(', ') || 'none'
      return `${asks}, which the Docker daemon does not have (it has: ${has}): register it in the daemon's configuration ("runtimes" in daemon.json), ${REMOVE}`
    }
  }
  return null
}
