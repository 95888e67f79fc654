import { spawnSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import Docker from 'dockerode'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { parseInputs, type RawInputs } from '../../src/config/inputs'
import { LABEL } from '../../src/engine/docker'
import { runSuite } from '../../src/pipeline'
import type { Result } from '../../src/result/schema'
import { quiet } from './log'
import { tmp } from './tmp'

/**
 * Shared by the Docker integration tests. They need a daemon (scripts/docker-setup.sh starts one
 * and builds the images); without one they are skipped with a message saying so.
 */
function daemonAnswers(): boolean {
  const ping =
    "new (require('dockerode'))().ping().then(() => process.exit(0), () => process.exit(1))"
  return spawnSync(process.execPath, ['-e', ping], { timeout: 5000, cwd: __dirname }).status === 0
}

export const dockerUp = daemonAnswers()
if (!dockerUp && process.env.CI) {
  // CI starts its own daemon (scripts/docker-setup.sh): a missing one is a failure, not a skip.
  throw new Error('no Docker daemon answers in CI: scripts/docker-setup.sh should have started one')
}
if (!dockerUp) {
  console.warn(
    'Docker integration tests SKIPPED: no Docker daemon answers (run scripts/docker-setup.sh)'
  )
}
export const describeDocker = dockerUp ? describe : describe.skip

/** python:3.11-slim: pulled, or its compiler-less stand-in from scripts/docker-base-image.sh. */
export const BASE_IMAGE = process.env.GLB_BASE_IMAGE || 'python:3.11-slim'

/** What the conformance suite's Docker and Swarm engines are made with. */
export const TEST_ENGINE = { gnesVersion: '0.0.47', baseImage: BASE_IMAGE, log: () => undefined }

/**
 * A suite on this daemon (`engine: docker` or `swarm`) from the test base image, everything it
 * starts labelled `runId`; `raw` overrides the inputs. Callers check the leftovers.
 */
export function daemonSuite(
  engine: 'docker' | 'swarm',
  raw: Partial<RawInputs>,
  runId = randomUUID()
): Promise<Result> {
  const inputs = parseInputs({ engine, 'base-image': BASE_IMAGE, 'out-dir': tmp(), ...raw })
  return runSuite(inputs, { suiteId: runId, log: quiet })
}

/** Containers and networks carrying a run's label. */
export async function labelled(runId: string): Promise<{ containers: number; networks: number }> {
  const docker = new Docker()
  const filters = JSON.stringify({ label: [`${LABEL.runId}=${runId}`] })
  const containers = await docker.listContainers({ all: true, filters })
  const networks = await docker.listNetworks({ filters })
  return { containers: containers.length, networks: networks.length }
}

/**
 * Everything of a run still on the daemon: containers, networks, volumes and (on a manager)
 * services, configs and secrets.
 */
export async function leftovers(runId: string): Promise<number> {
  const docker = new Docker()
  const filters = JSON.stringify({ label: [`${LABEL.runId}=${runId}`] })
  const { containers, networks } = await labelled(runId)
  const volumes = (await docker.listVolumes({ filters })).Volumes ?? []
  const info = (await docker.info()) as { Swarm?: { ControlAvailable?: boolean } }
  const swarm = info.Swarm?.ControlAvailable
    ? await Promise.all([
        docker.listServices({ filters }),
        docker.listConfigs({ filters }),
        docker.listSecrets({ filters })
      ])
    : []
  return containers + networks + volumes.length + swarm.flat().length
}

const scripts = path.join(__dirname, '..', '..', 'scripts')
const STATE = process.env.GLB_STATE_DIR || '/var/run/gnes-latency-bench'

/**
 * Brings up swarm mode (and with `worker`, the second node in its own network namespace) through
 * scripts/swarm-setup.sh, the same script CI runs. Resolves true when this call started something,
 * which the caller then takes down with `swarmDown()`; a swarm that was already there is left be.
 */
export function swarmUp(worker: boolean): boolean {
  const before = fs.existsSync(`${STATE}/swarm-started`)
  const workerBefore = fs.existsSync(`${STATE}/worker-1/dockerd.pid`)
  const r = spawnSync(
    'bash',
    [path.join(scripts, 'swarm-setup.sh'), ...(worker ? ['--worker'] : [])],
    {
      encoding: 'utf8',
      timeout: 300_000
    }
  )
  if (r.status !== 0) throw new Error(`scripts/swarm-setup.sh failed:\n${r.stdout}${r.stderr}`)
  const startedSwarm = !before && fs.existsSync(`${STATE}/swarm-started`)
  const startedWorker = worker && !workerBefore
  return startedSwarm || startedWorker
}

/** scripts/swarm-teardown.sh: stops the worker and leaves swarm mode, if setup started them. */
export function swarmDown(): void {
  const r = spawnSync('bash', [path.join(scripts, 'swarm-teardown.sh')], { encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`scripts/swarm-teardown.sh failed:\n${r.stdout}${r.stderr}`)
}
