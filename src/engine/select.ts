import { invalidInput } from '../config/preflight'
import type { Log } from '../log'
import { createDockerEngine, daemonAddress, dockerAvailable } from './docker'
import { LocalEngine } from './local/engine'
import { createSwarmEngine } from './swarm/engine'
import type { EngineSettings } from './settings'
import type { Engine } from './types'
import { localEngineProblem } from '../topology/http-check'
import type { Topology } from '../topology/schema'

/**
 * `docker` requires a daemon, `local` never asks for one, and `auto` prefers Docker (the engine
 * on GitHub runners) and falls back to local processes where no daemon answers. `swarm` is only
 * ever asked for: its prepare() refuses a daemon that is not a swarm manager. A GNES source tree
 * is built into the image on Docker and Swarm, and installed into a venv on local processes.
 */
export async function selectEngine(
  settings: EngineSettings,
  suiteId: string,
  log: Log
): Promise<Engine> {
  const { engine: wanted, gnesSource: source } = settings
  const gnes = source !== null ? { source } : { version: settings.gnesVersion }
  if (wanted === 'swarm') {
    log.info(`engine: swarm (the manager at ${daemonAddress()})`)
    return createSwarmEngine({ ...settings, runId: suiteId, log: m => log.info(m) })
  }
  if (wanted !== 'local') {
    const available = await dockerAvailable()
    if (available) {
      log.info(`engine: docker (daemon at ${daemonAddress()} answered; engine input '${wanted}')`)
      return createDockerEngine({ ...settings, runId: suiteId, log: m => log.info(m) })
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
  if (source !== null) log.info(`engine: gnes-source ${source} is installed into a venv`)
  return new LocalEngine(gnes, suiteId, m => log.info(m))
}

/**
 * Pre-flight of `engine: auto` without a daemon, where the run would fall back to local
 * processes: limits would be dropped silently, and a generic service that needs containers (no
 * command, an entrypoint, a health check, a one-shot job) could not start. Docker is asked only
 * when either is at stake.
 */
export async function checkAutoEngine(
  settings: Pick<EngineSettings, 'engine' | 'cpus' | 'memory'>,
  topologies: readonly { file: string; topology: Topology }[]
): Promise<void> {
  if (settings.engine !== 'auto') return
  const limit = settings.cpus ? 'cpus' : settings.memory ? 'memory' : null
  const containerOnly = topologies.flatMap(({ file, topology }) => {
    const refused = localEngineProblem(topology)
    return refused ? [{ file, ...refused }] : []
  })
  if ((!limit && containerOnly.length === 0) || (await dockerAvailable())) return
  if (limit) {
    throw invalidInput(
      limit,
      settings[limit]!,
      `${limit} limits Docker containers, but no Docker daemon answers, so engine 'auto' would run local processes without it; start Docker or drop ${limit}`
    )
  }
  const [first] = containerOnly
  throw invalidInput(
    'engine',
    'auto',
    `no Docker daemon answers at ${daemonAddress()}, so engine 'auto' would run local processes, and ${first.file}: service '${first.service}' ${first.problem} (which needs Docker); start Docker, or give it a command of its own`
  )
}
