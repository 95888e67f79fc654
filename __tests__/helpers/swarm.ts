import Docker from 'dockerode'
import { dockerUp, swarmDown, swarmUp } from './docker'

/**
 * The swarm the Swarm suites run on: scripts/swarm-setup.sh's single node, or with its worker a
 * second dockerd in a network namespace (hostname `WORKER`, its daemon at `WORKER_SOCKET`).
 */
export const WORKER = 'glb-worker-1'
const STATE = process.env.GLB_STATE_DIR || '/var/run/gnes-latency-bench'
export const WORKER_SOCKET = `${STATE}/worker-1/docker.sock`

/**
 * Brings the swarm up before the file's (or the enclosing describe's) tests and takes down after
 * them what this call started. `npm test`'s system lane starts it first, so suites running beside
 * each other never take it down under one another. Hooks the caller declares in a nested describe
 * run inside these: a deployment there is stopped before the swarm goes.
 */
export function useSwarm({ worker }: { worker: boolean }): void {
  if (!dockerUp) return
  let started = false
  beforeAll(() => {
    started = swarmUp(worker)
  }, 300_000)
  afterAll(() => {
    if (started) swarmDown()
  }, 120_000)
}

/** Copies `image` from the manager's daemon to the worker's unless it has it, as a user ships it. */
export async function imageOnWorker(image: string): Promise<void> {
  const worker = new Docker({ socketPath: WORKER_SOCKET })
  const there = await worker
    .getImage(image)
    .inspect()
    .then(
      () => true,
      () => false
    )
  if (there) return
  const progress = await worker.loadImage(await new Docker().getImage(image).get())
  // The load is done when its progress stream ends; reading it to the end also closes it.
  await new Promise((resolve, reject) => {
    progress.on('end', resolve).on('error', reject).resume()
  })
}
