/**
 * Integration: public Dockerfiles as `docker init` writes them (fixtures/docker-init-demos, MIT:
 * dockersamples/docker-init-demos), built by BuildKit from their Compose files and answering the
 * load: Node.js (`npm ci` under bind and cache mounts, `USER node`) and Python (`adduser`,
 * `python -m pip install` of Flask from PyPI under the same mounts, `USER appuser`), both under
 * `# syntax=docker/dockerfile:1`, on Docker; the Python one on Swarm too. Their bases are
 * node:20-slim and python:3.11-slim, pulled or the stand-ins of scripts/docker-base-image.sh and
 * docker-node-image.sh, which must have what these files call (`python`, `pip`, the `node` user).
 *
 * @side-by-side: whether each builds and answers; no figure.
 */
import { randomUUID } from 'node:crypto'
import Docker from 'dockerode'
import * as path from 'node:path'
import { ensureServiceImage } from '../src/engine/docker/image'
import { daemonSuite, describeDocker, leftovers } from './helpers/docker'
import { useSwarm } from './helpers/swarm'
import { expectStorableResult } from './helpers/result'

const SAMPLES = path.join(__dirname, 'fixtures', 'docker-init-demos')

/** Each sample's Compose service and the build argument its compose.bench.yaml sets. */
const SAMPLE = {
  node: { service: 'server', args: { NODE_VERSION: '20' } },
  python: { service: 'app', args: { PYTHON_VERSION: '3.11' } }
} as const

const built = new Set<string>()
afterAll(async () => {
  for (const image of built) {
    await new Docker()
      .getImage(image)
      .remove({ force: true })
      .catch(() => undefined)
  }
})

/** Runs `sample` on `engine` with the minimal load: built, answering 200, and nothing left. */
async function runSample(sample: keyof typeof SAMPLE, engine: 'docker' | 'swarm'): Promise<void> {
  const dir = path.join(SAMPLES, sample)
  const runId = randomUUID()
  const result = await daemonSuite(
    engine,
    {
      topology: `${path.join(dir, 'compose.yaml')}+${path.join(dir, 'compose.bench.yaml')}`,
      profiles: 'minimal',
      requests: '10'
    },
    runId
  )
  // The run's image, found again by its context and arguments (its tag is their hash) for removal.
  const { service, args } = SAMPLE[sample]
  const build = { context: dir, dockerfile: 'Dockerfile', args }
  built.add(
    await ensureServiceImage(
      new Docker(),
      { name: service, image: service, build },
      () => undefined
    )
  )
  expectStorableResult(result)
  expect(result.meta.engine).toBe(engine)
  expect(result.cases[0].best.latency).toBeGreaterThan(0)
  expect(await leftovers(runId)).toBe(0)
}

describeDocker('docker init’s public Dockerfiles on Docker', () => {
  jest.setTimeout(600_000)

  test('Node.js: npm ci under bind and cache mounts, USER node; builds and answers', async () => {
    await runSample('node', 'docker')
  })

  test('Python: adduser, python -m pip install of Flask under mounts; builds and answers', async () => {
    await runSample('python', 'docker')
  })
})

describeDocker('docker init’s public Dockerfiles on Swarm', () => {
  jest.setTimeout(600_000)
  useSwarm({ worker: false })

  test('Python: built and run as a Swarm service, answering the load', async () => {
    await runSample('python', 'swarm')
  })
})
