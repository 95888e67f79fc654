import type { EngineKind } from '../config/engines'
import { invalidInput } from '../config/preflight'
import type { Log } from '../log'
import { daemonAddress, dockerAvailable } from './docker'
import { ENGINES } from './registry'
import type { EngineSettings } from './settings'
import type { Engine } from './types'
import { localEngineProblem } from '../topology/http-check'
import type { Topology } from '../topology/schema'

/**
 * The engine the `engine` input names, refused where it cannot run here (`docker` without a
 * daemon; `swarm`'s prepare() refuses a daemon that is not a swarm manager), or for `auto` Docker
 * (the engine on GitHub runners), falling back to local processes where no daemon answers.
 */
export async function selectEngine(
  settings: EngineSettings,
  suiteId: string,
  log: Log
): Promise<Engine> {
  const wanted = settings.engine
  const kind = wanted === 'auto' ? await autoEngine(log) : await askedFor(wanted, log)
  return ENGINES[kind].create(settings, suiteId, log)
}

async function askedFor(kind: EngineKind, log: Log): Promise<EngineKind> {
  const entry = ENGINES[kind]
  const problem = await entry.unavailable()
  if (problem) throw new Error(problem)
  log.info(entry.chosen(kind))
  return kind
}

async function autoEngine(log: Log): Promise<EngineKind> {
  if (await dockerAvailable()) {
    log.info(ENGINES.docker.chosen('auto'))
    return 'docker'
  }
  log.info(`engine: local processes (no Docker daemon answers at ${daemonAddress()})`)
  return 'local'
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
