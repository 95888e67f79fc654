/**
 * Integration: the Docker engine against the real daemon, with the GNES image built from PyPI on
 * python:3.11-slim (scripts/docker-setup.sh). Small loads keep it quick.
 *
 * @side-by-side: what the engine did with the daemon; its one figure, case 2's 1 s blocking hop
 * within 10 %, is not one a neighbour's load moves by 100 ms.
 */
import Docker from 'dockerode'
import { randomUUID } from 'node:crypto'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { runLoadClient } from '../src/client/load-client'
import { InputError, parseInputs } from '../src/config/inputs'
import { createDockerEngine } from '../src/engine/docker'
import { customImageTag } from '../src/engine/docker/image'
import { resolveBase } from '../src/engine/docker/base-image'
import { pypiImageTag } from '../src/engine/docker/gnes-image'
import { ServiceFailure } from '../src/engine/types'
import { runSuite } from '../src/pipeline'
import { resolveTopology } from '../src/topology/load'
import {
  BASE_IMAGE,
  daemonSuite,
  describeDocker,
  labelled,
  leftovers,
  TEST_ENGINE
} from './helpers/docker'
import { engineConformance, gnesCase } from './helpers/conformance'
import { expectStorableResult } from './helpers/result'
import { quiet } from './helpers/log'
import { tmp } from './helpers/tmp'

describeDocker('docker engine', () => {
  engineConformance('docker', {
    make: () => createDockerEngine(TEST_ENGINE),
    leftovers
  })

  it('starts case 1 with the limits on every service container (the lifecycle is in the conformance suite)', async () => {
    const engine = createDockerEngine({ ...TEST_ENGINE, cpus: '0.5', memory: '512m' })
    try {
      const meta = await engine.prepare()
      expect(meta).toMatchObject({ version: '0.0.47', tag: '0.0.47', vcs: null })
      expect(meta?.buildDate).toMatch(/^\d{4}-\d\d-\d\dT/)
      const logDir = tmp()
      const dep = await engine.start(resolveTopology('1').topology, {
        logDir,
        readyTimeoutMs: 60_000
      })
      const docker = new Docker()
      const filters = JSON.stringify({ label: [`io.gnes-latency-bench.run-id=${engine.runId}`] })
      const running = await docker.listContainers({ filters })
      const instances = running.map(c => /-(\w+-\d+)$/.exec(c.Names[0])?.[1]).sort()
      expect(instances).toEqual(['Frontend-0', 'Router1-0', 'Router2-0'])
      for (const c of running) {
        const { HostConfig } = await docker.getContainer(c.Id).inspect()
        expect(HostConfig).toMatchObject({ NanoCpus: 5e8, Memory: 512 * 1024 ** 2, Init: true })
      }
      await dep.stop()
      expect(await labelled(engine.runId)).toEqual({ containers: 0, networks: 0 })
    } finally {
      await engine.shutdown()
    }
  })

  it('runs two suites side by side on one daemon (no host ports, own networks)', async () => {
    const engines = [1, 2].map(() => createDockerEngine(TEST_ENGINE))
    try {
      await Promise.all(engines.map(e => e.prepare()))
      const topology = gnesCase('1')
      const deps = await Promise.all(
        engines.map(e => e.start(topology, { logDir: tmp(), readyTimeoutMs: 60_000 }))
      )
      const reports = await Promise.all(
        deps.map((d, k) =>
          runLoadClient(
            d,
            { batchSize: 10, docBytes: 100, streams: [{ docs: 10 * (k + 1), rate: null }] },
            60
          )
        )
      )
      expect(reports.map(([r]) => r.responses)).toEqual([1, 2])
      const dumps = await Promise.all(deps.map(d => d.readRouteDump()))
      expect(dumps.map(d => d.trim().split('\n').length)).toEqual([1, 2])
    } finally {
      await Promise.all(engines.map(e => e.shutdown()))
    }
    for (const e of engines) expect(await labelled(e.runId)).toEqual({ containers: 0, networks: 0 })
  })

  it('runs all four cases with a small load; the result validates and nothing is left', async () => {
    const runId = randomUUID()
    const result = await daemonSuite(
      'docker',
      { docs: '20', runs: '1', 'warmup-requests': '2', profiles: 'burst' },
      runId
    )
    expectStorableResult(result)
    expect(result.meta.engine).toBe('docker')
    expect(result.meta.gnes).toMatchObject({ version: '0.0.47', tag: '0.0.47' })
    expect(result.cases.map(c => c.id)).toEqual(['1', '2', '3', '4'])
    for (const c of result.cases) for (const r of c.runs) expect(r.requests).toBe(2)
    // Blocking cases hold every request 1 s at a router.
    expect(result.cases[1].runs[1].samples['r2:proc'].every(v => v > 0.99)).toBe(true)
    expect(result.cases[0].best.roundtrip).toBeLessThan(1)
    expect(await labelled(runId)).toEqual({ containers: 0, networks: 0 })
  })

  it('agrees with the local engine on the case-2 blocking figure (r1->r2:send) within 10%', async () => {
    const raw = { cases: '2', docs: '40', runs: '2', 'warmup-requests': '0', profiles: 'burst' }
    const onDocker = await daemonSuite('docker', raw)
    const onLocal = await runSuite(parseInputs({ ...raw, engine: 'local', 'out-dir': tmp() }), {
      log: quiet
    })
    const docker = onDocker.cases[0].best['r1->r2:send']
    const local = onLocal.cases[0].best['r1->r2:send']
    expect(docker).toBeGreaterThan(1)
    expect(Math.abs(docker - local) / local).toBeLessThan(0.1)
  })

  it('fails fast naming a service that dies, with its last log lines, and removes everything', async () => {
    const dir = tmp()
    const file = path.join(dir, 'broken.yml')
    const case1 = fs.readFileSync(path.join(__dirname, '..', 'topologies', 'case1.yml'), 'utf8')
    fs.writeFileSync(
      file,
      case1.replace(
        'model: BaseRouter\n    in: { socket: PULL_CONNECT, peer: Router1 }',
        'model: BaseRouter\n    args: [--no_such_flag]\n    in: { socket: PULL_CONNECT, peer: Router1 }'
      )
    )
    const started = Date.now()
    const runId = randomUUID()
    const error = await daemonSuite('docker', { topology: file, docs: '20' }, runId).catch(e => e)
    expect(error).toBeInstanceOf(ServiceFailure)
    expect(error.message).toMatch(/^service Router2-0 exited \(code \d+\); last log lines:\n/)
    expect(error.message).toContain('unrecognized arguments: --no_such_flag')
    expect(Date.now() - started).toBeLessThan(60_000)
    expect(await labelled(runId)).toEqual({ containers: 0, networks: 0 })
  })

  it('builds GNES from PyPI through the Engine API when its image is missing', async () => {
    // A new base tag gives a new image tag; the daemon's layer cache keeps the build quick.
    const docker = new Docker()
    const alias = { repo: 'gnes-latency-bench/base', tag: `alias-${Date.now()}` }
    await docker.getImage(BASE_IMAGE).tag(alias)
    const baseImage = `${alias.repo}:${alias.tag}`
    const lines: string[] = []
    const engine = createDockerEngine({ gnesVersion: '0.0.47', baseImage, log: l => lines.push(l) })
    try {
      const meta = await engine.prepare()
      expect(meta).toMatchObject({ version: '0.0.47', tag: '0.0.47', vcs: null })
      expect(lines).toContain(
        'pip inside the build fetches GNES 0.0.47 from the index and compiles it'
      )
      const base = await resolveBase(docker, baseImage, () => undefined)
      const built = await docker.getImage(pypiImageTag('0.0.47', base)).inspect()
      expect(built.Config.Labels['io.gnes-latency-bench.base-image']).toBe(baseImage)
      expect(built.Config.Labels['io.gnes-latency-bench.base-id']).toBe(base.id)
    } finally {
      await engine.shutdown()
      const base = await resolveBase(docker, baseImage, () => undefined)
      await docker
        .getImage(pypiImageTag('0.0.47', base))
        .remove()
        .catch(() => undefined)
      await docker
        .getImage(baseImage)
        .remove()
        .catch(() => undefined)
    }
  })

  it('stops on a base with no compiler and no package manager, naming the failed step and the build’s last lines', async () => {
    const docker = new Docker()
    const dir = tmp()
    // python:3.11-slim without apt-get: no way to install the compiler GNES's extensions need.
    fs.writeFileSync(path.join(dir, 'Dockerfile'), `FROM ${BASE_IMAGE}\nRUN rm /usr/bin/apt-get\n`)
    const baseImage = `gnes-latency-bench/no-apt:${Date.now()}`
    const [repo, tag] = baseImage.split(':')
    await new Promise((resolve, reject) =>
      docker
        .buildImage({ context: dir, src: ['Dockerfile'] }, { t: `${repo}:${tag}` })
        .then(s => docker.modem.followProgress(s, e => (e ? reject(e) : resolve(null))), reject)
    )
    const engine = createDockerEngine({ gnesVersion: '0.0.47', baseImage, log: () => undefined })
    try {
      const error = await engine.prepare().catch(e => e)
      expect(error).not.toBeInstanceOf(InputError)
      expect(error.message).toMatch(
        new RegExp(
          `^building the compiler and GNES's dependencies on ${baseImage} \\(for the GNES 0\\.0\\.47 image from PyPI on ${baseImage}\\) failed at Step 3/\\d+ : RUN `
        )
      )
      expect(error.message).toContain('last lines of the build:')
      expect(error.message).toContain('neither apt-get nor apk to install one')
      const containers = await docker.listContainers({
        all: true,
        filters: JSON.stringify({ ancestor: [baseImage] })
      })
      expect(containers).toEqual([])
    } finally {
      await engine.shutdown()
      await docker
        .getImage(baseImage)
        .remove()
        .catch(() => undefined)
    }
  })

  it('builds a user Dockerfile and carries its GNES_VCS_VERSION and build date into the meta', async () => {
    const dir = tmp()
    const base = pypiImageTag(
      '0.0.47',
      await resolveBase(new Docker(), BASE_IMAGE, () => undefined)
    )
    fs.writeFileSync(
      path.join(dir, 'Dockerfile'),
      `FROM ${base}\nENV GNES_VCS_VERSION=0123abcd\nLABEL org.opencontainers.image.created=2019-10-01T12:00:00Z\nCOPY marker /marker\n`
    )
    fs.writeFileSync(path.join(dir, 'marker'), 'x')
    const engine = createDockerEngine({ ...TEST_ENGINE, dockerfile: path.join(dir, 'Dockerfile') })
    try {
      // The base image sets GNES_BUILD_DATE, and env wins over labels.
      const meta = await engine.prepare()
      expect(meta).toMatchObject({ version: '0.0.47', tag: '0.0.47', vcs: '0123abcd' })
    } finally {
      await engine.shutdown()
      await new Docker()
        .getImage(customImageTag(dir, 'Dockerfile'))
        .remove()
        .catch(() => undefined)
    }
  })
})

describeDocker('docker engine: bad inputs give one clear error naming the input', () => {
  async function prepareFails(options: Parameters<typeof createDockerEngine>[0]): Promise<Error> {
    const engine = createDockerEngine(options)
    const error = await engine.prepare().catch(e => e)
    await engine.shutdown()
    expect(await labelled(engine.runId)).toEqual({ containers: 0, networks: 0 })
    return error
  }

  it('a missing image', async () => {
    const error = await prepareFails({ ...TEST_ENGINE, image: 'gnes-latency-bench/missing:none' })
    expect(error).toBeInstanceOf(InputError)
    expect(error.message).toMatch(
      /input 'image' = 'gnes-latency-bench\/missing:none': image not found locally and the pull failed/
    )
  })

  it('a base image that is neither present nor pullable', async () => {
    const error = await prepareFails({ ...TEST_ENGINE, baseImage: 'gnes-latency-bench/base:none' })
    expect(error).toBeInstanceOf(InputError)
    expect(error.message).toMatch(
      /^Invalid input:\n {2}input 'base-image' = 'gnes-latency-bench\/base:none': image not found locally and the pull failed: ./
    )
  })

  it('a Dockerfile that fails to build', async () => {
    const dir = tmp()
    fs.writeFileSync(
      path.join(dir, 'Dockerfile'),
      `FROM ${BASE_IMAGE}\nRUN echo broken step; exit 3\n`
    )
    const docker = new Docker()
    const before = new Set((await docker.listContainers({ all: true })).map(c => c.Id))
    const error = await prepareFails({ ...TEST_ENGINE, dockerfile: path.join(dir, 'Dockerfile') })
    // Not even the failed build step's container remains (suites beside this one start and remove
    // containers of their own meanwhile: only one running the step counts).
    const left = (await docker.listContainers({ all: true })).filter(
      c => !before.has(c.Id) && c.Command.includes('broken step')
    )
    expect(left).toEqual([])
    // The build's own words name the cause, not the input that chose the build.
    expect(error).not.toBeInstanceOf(InputError)
    // BuildKit names the step as [n/m] (a user's Dockerfile is built as `docker build` builds it).
    expect(error.message).toMatch(
      new RegExp(
        `^building the image of ${path.join(dir, 'Dockerfile')} failed at \\[2/2\\] RUN echo broken step; exit 3: .*exit code: 3`
      )
    )
    // The step's own output, after its name, among the build's last lines.
    expect(error.message).toMatch(
      /last lines of the build:\n(.*\n)*\[2\/2\] RUN echo broken step; exit 3 broken step/
    )
  })

  it('an unreachable daemon', async () => {
    const saved = process.env.DOCKER_HOST
    process.env.DOCKER_HOST = 'tcp://127.0.0.1:9'
    try {
      const engine = createDockerEngine(TEST_ENGINE)
      const error = await engine.prepare().catch(e => e)
      expect(error).toBeInstanceOf(InputError)
      expect(error.message).toMatch(
        /input 'engine' = 'docker': no Docker daemon answers at tcp:\/\/127.0.0.1:9 \(DOCKER_HOST\)/
      )
    } finally {
      if (saved === undefined) delete process.env.DOCKER_HOST
      else process.env.DOCKER_HOST = saved
    }
  })

  it('an invalid memory or cpus limit, before anything is created', () => {
    expect(() => createDockerEngine({ ...TEST_ENGINE, memory: 'lots' })).toThrow(
      /input 'memory' = 'lots': memory must be a size such as 512m or 1g/
    )
    expect(() => createDockerEngine({ ...TEST_ENGINE, memory: '1k' })).toThrow(
      /input 'memory' = '1k'/
    )
    expect(() => createDockerEngine({ ...TEST_ENGINE, cpus: '-1' })).toThrow(/input 'cpus' = '-1'/)
  })

  it('cpus beyond the daemon, at prepare', async () => {
    const error = await prepareFails({ ...TEST_ENGINE, cpus: '512' })
    expect(error.message).toMatch(
      /input 'cpus' = '512': cpus must be a number between 0.01 and \d+/
    )
  })
})
