import type { Inputs } from '../config/inputs'
import { invalidInput } from '../config/preflight'
import type { Log } from '../log'
import { createDockerEngine, daemonAddress, dockerAvailable, dockerEngineOptions } from './docker'
import { LocalEngine } from './local/engine'
import { createSwarmEngine } from './swarm/engine'
import type { Engine } from './types'

/**
 * `docker` requires a daemon, `local` never asks for one, and `auto` prefers Docker (the engine
 * on GitHub runners) and falls back to local processes where no daemon answers. `swarm` is only
 * ever asked for: its prepare() refuses a daemon that is not a swarm manager. A GNES source tree
 * runs on local processes.
 */
export async function selectEngine(inputs: Inputs, suiteId: string, log: Log): Promise<Engine> {
  const wanted = inputs.engine
  const source = inputs['gnes-source']
  if (source !== null) {
    // Pre-flight refused docker and swarm: a source tree is installed into a local venv.
    log.info(`engine: local processes (gnes-source ${source} is installed into a venv)`)
    return new LocalEngine({ source }, suiteId, m => log.info(m))
  }
  if (wanted === 'swarm') {
    log.info(`engine: swarm (the manager at ${daemonAddress()})`)
    return createSwarmEngine(dockerEngineOptions(inputs, { runId: suiteId, log: m => log.info(m) }))
  }
  if (wanted !== 'local') {
    const available = await dockerAvailable()
    if (available) {
      log.info(`engine: docker (daemon at ${daemonAddress()} answered; engine input '${wanted}')`)
      return createDockerEngine(
        dockerEngineOptions(inputs, { runId: suiteId, log: m => log.info(m) })
      )
    }
    if (wanted === 'docker') {
      throw new Error(
        `engine 'docker' was asked for, but no Docker daemon answers at ${daemonAddress()} (set DOCKER_HOST, start dockerd, or use engine: auto or local)`
      )
    }
    log.info(`engine: local processes (no Docker daemon answers at ${daemonAddress()})`)
  } else {
    log.info('engine: local processes on loopback (engine input local)')
  }
  return new LocalEngine({ version: inputs['gnes-version'] }, suiteId, m => log.info(m))
}

/**
 * Pre-flight: limits under `engine: auto` need a daemon, or the run would fall back to local
 * processes and silently drop them.
 */
export async function checkLimitsReachDocker(inputs: Inputs): Promise<void> {
  const limit = inputs.cpus !== null ? 'cpus' : inputs.memory !== null ? 'memory' : null
  if (limit && inputs.engine === 'auto' && !(await dockerAvailable())) {
    throw invalidInput(
      limit,
      inputs[limit]!,
      `${limit} limits Docker containers, but no Docker daemon answers, so engine 'auto' would run local processes without it; start Docker or drop ${limit}`
    )
  }
}
