/**
 * Integration: builds as `docker compose build` makes them, on the real daemon: BuildKit with a
 * heredoc and a cache mount (on Docker and on Swarm), a Compose service whose Dockerfile has the
 * shape of `docker init`'s Node.js template under `# syntax=docker/dockerfile:1` (bind and cache
 * mounts, a heredoc; on Docker and on Swarm), a `# syntax=` frontend that cannot be had, and a
 * Compose `build: .` at a repository root with a `.dockerignore`, built once per side of a paired
 * run. The `docker/dockerfile:1.4` and `:1` frontends are pulled, or their stand-ins from
 * scripts/dockerfile-frontend.sh where no registry answers.
 *
 * @side-by-side: what was built, and how often; no figure.
 */
import { randomUUID } from 'node:crypto'
import Docker from 'dockerode'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { parseInputs } from '../src/config/inputs'
import { runOnce } from '../src/engine/docker/container'
import { ensureServiceImage } from '../src/engine/docker/image'
import type { Log } from '../src/log'
import { runPairedSuite } from '../src/pipeline/suite/paired'
import { BASE_IMAGE, daemonSuite, describeDocker, leftovers } from './helpers/docker'
import { useSwarm } from './helpers/swarm'
import { expectStorableResult } from './helpers/result'
import { tmp } from './helpers/tmp'

const RELAY = path.join(__dirname, '..', 'examples', 'services', 'relay', 'relay.py')

/** The standard output of `cmd` in a throwaway container of `image`. */
async function output(image: string, cmd: string[]): Promise<string> {
  const name = `glb-test-${randomUUID().slice(0, 8)}`
  const spec = { name, image, entrypoint: cmd, cmd: [], labels: {}, timeoutMs: 60_000 }
  return (await runOnce(new Docker(), spec)).stdout
}

/** A relay whose image takes BuildKit: a heredoc writes a file, a RUN counts its cache mount's uses. */
function heredocRelay(cacheId: string): string {
  const dir = tmp()
  fs.copyFileSync(RELAY, path.join(dir, 'relay.py'))
  fs.writeFileSync(
    path.join(dir, 'Dockerfile'),
    `# syntax=docker/dockerfile:1.4
FROM ${BASE_IMAGE}
WORKDIR /app
COPY relay.py ./
COPY <<EOF /app/greeting.txt
hello from a heredoc
EOF
ARG ROUND=1
RUN --mount=type=cache,id=${cacheId},target=/var/cache/glb <<EOF
set -e
echo "round $ROUND" >> /var/cache/glb/rounds
wc -l < /var/cache/glb/rounds > /app/rounds-seen
EOF
ENV PYTHONUNBUFFERED=1 PORT=8080
CMD ["python3", "relay.py"]
`
  )
  return dir
}

/** The relay's image tag, kept for removal (the build made it; this finds it). */
async function relayImage(dir: string): Promise<string> {
  const build = { context: dir, dockerfile: 'Dockerfile' }
  const service = { name: 'relay', image: 'example/heredoc-relay:1', build }
  const image = await ensureServiceImage(new Docker(), service, () => undefined)
  created.push(image)
  return image
}

/** A one-relay topology built from `dir` with the minimal load. */
function relayTopology(dir: string): string {
  const file = path.join(tmp(), 'heredoc.yml')
  fs.writeFileSync(
    file,
    `id: heredoc
name: relay built with a heredoc
kind: http
services:
  - name: relay
    image: example/heredoc-relay:1
    build: { context: ${dir}, dockerfile: Dockerfile }
    command: [python3, relay.py]
    environment: { HOP: relay, PORT: '\${port}' }
    port: 8080
    ready: { log: 'listening on' }
load: { service: relay }
`
  )
  return file
}

/**
 * A Compose project whose Dockerfile has the shape of `docker init`'s Node.js template under the
 * `# syntax=docker/dockerfile:1` line most public Dockerfiles carry: package.json and its lock
 * bind-mounted into `npm ci` with npm's cache mounted, and the server written by a heredoc. The
 * lock names no dependency, so `npm ci` needs no registry.
 */
function npmProject(): string {
  const dir = tmp()
  const write = (name: string, text: string) => fs.writeFileSync(path.join(dir, name), text)
  const pkg = { name: 'glb-npm', version: '1.0.0', private: true }
  write('package.json', JSON.stringify(pkg))
  write(
    'package-lock.json',
    JSON.stringify({ ...pkg, lockfileVersion: 3, requires: true, packages: { '': pkg } })
  )
  write(
    'Dockerfile',
    `# syntax=docker/dockerfile:1
FROM node:20-slim
ENV NODE_ENV=production
WORKDIR /usr/src/app
RUN --mount=type=bind,source=package.json,target=package.json \\
    --mount=type=bind,source=package-lock.json,target=package-lock.json \\
    --mount=type=cache,target=/root/.npm \\
    npm ci --omit=dev
COPY <<EOF server.js
require('node:http').createServer((_, res) => res.end('ok')).listen(3000)
EOF
EXPOSE 3000
CMD ["node", "server.js"]
`
  )
  write(
    'compose.yaml',
    `services:
  web:
    build: .
    expose: ['3000']
x-latency-bench:
  load: { service: web, path: /, status: [200] }
`
  )
  return dir
}

/** Runs the npm project on `engine`: built, started, measured, and nothing left. */
async function runNpmProject(engine: 'docker' | 'swarm'): Promise<void> {
  const runId = randomUUID()
  const dir = npmProject()
  const result = await daemonSuite(
    engine,
    { topology: path.join(dir, 'compose.yaml'), profiles: 'minimal', requests: '10' },
    runId
  )
  // The run's image, found again by its context (the tag is its content's) for removal.
  const build = { context: dir, dockerfile: 'Dockerfile' }
  const service = { name: 'web', image: 'web', build }
  created.push(await ensureServiceImage(new Docker(), service, () => undefined))
  expectStorableResult(result)
  expect(result.meta.engine).toBe(engine)
  expect(result.cases[0].best.latency).toBeGreaterThan(0)
  expect(await leftovers(runId)).toBe(0)
}

const created: string[] = []
afterAll(async () => {
  for (const image of created) {
    await new Docker()
      .getImage(image)
      .remove({ force: true })
      .catch(() => undefined)
  }
})

describeDocker('BuildKit builds on Docker', () => {
  jest.setTimeout(600_000)

  test('a heredoc and RUN --mount=type=cache: the files it writes, the cache kept between builds', async () => {
    const dir = heredocRelay(`glb-test-${randomUUID()}`)
    const docker = new Docker()
    const service = (round: string) => ({
      name: 'relay',
      image: 'example/heredoc:1',
      build: { context: dir, dockerfile: 'Dockerfile', args: { ROUND: round } }
    })
    const lines: string[] = []
    const first = await ensureServiceImage(docker, service('1'), l => lines.push(l))
    const second = await ensureServiceImage(docker, service('2'), l => lines.push(l))
    created.push(first, second)
    expect(lines.filter(l => / with BuildKit$/.test(l))).toHaveLength(2)
    expect(await output(first, ['cat', '/app/greeting.txt'])).toBe('hello from a heredoc\n')
    // The second build's RUN saw the first's line in the cache mount; neither image holds it.
    expect((await output(first, ['cat', '/app/rounds-seen'])).trim()).toBe('1')
    expect((await output(second, ['cat', '/app/rounds-seen'])).trim()).toBe('2')
    expect(await output(second, ['ls', '/var/cache/glb'])).toBe('')
  })

  test('the heredoc relay runs and is measured on Docker', async () => {
    const runId = randomUUID()
    const dir = heredocRelay('glb-test-docker')
    const result = await daemonSuite(
      'docker',
      { topology: relayTopology(dir), profiles: 'minimal' },
      runId
    )
    await relayImage(dir)
    expectStorableResult(result)
    expect(result.cases[0].best.latency).toBeGreaterThan(0)
    expect(await leftovers(runId)).toBe(0)
  })

  test('docker init’s Node.js shape under # syntax=docker/dockerfile:1 builds and answers', async () => {
    await runNpmProject('docker')
  })

  test('a failing step is named, with its output and exit code', async () => {
    const dir = tmp()
    fs.writeFileSync(
      path.join(dir, 'Dockerfile'),
      `FROM ${BASE_IMAGE}\nRUN echo no compiler here >&2 && exit 3\n`
    )
    const service = {
      name: 'app',
      image: 'example/app:1',
      build: { context: dir, dockerfile: 'Dockerfile' }
    }
    const error = await ensureServiceImage(new Docker(), service, () => undefined).catch(e => e)
    expect((error as Error).message).toMatch(
      /^building topology service app \(example\/app:1\) failed at \[[^\]]*\] RUN echo no compiler here >&2 && exit 3: .*exit code: 3/
    )
    expect((error as Error).message).toMatch(/last lines of the build:\n(.*\n)*.*no compiler here/)
  })

  test('a # syntax= frontend the daemon cannot get fails naming the line', async () => {
    const dir = tmp()
    fs.writeFileSync(
      path.join(dir, 'Dockerfile'),
      `# syntax=glb-test.invalid/no-frontend:1\nFROM ${BASE_IMAGE}\n`
    )
    const service = {
      name: 'app',
      image: 'example/app:1',
      build: { context: dir, dockerfile: 'Dockerfile' }
    }
    await expect(ensureServiceImage(new Docker(), service, () => undefined)).rejects.toThrow(
      "its Dockerfile's '# syntax=glb-test.invalid/no-frontend:1' line names a frontend image the daemon has not got"
    )
  })
})

describeDocker('BuildKit builds on Swarm', () => {
  jest.setTimeout(600_000)
  useSwarm({ worker: false })

  test('the heredoc relay runs as a Swarm service and is measured', async () => {
    const runId = randomUUID()
    const dir = heredocRelay('glb-test-swarm')
    const result = await daemonSuite(
      'swarm',
      { topology: relayTopology(dir), profiles: 'minimal' },
      runId
    )
    await relayImage(dir)
    expectStorableResult(result)
    expect(result.meta.engine).toBe('swarm')
    expect(result.cases[0].best.latency).toBeGreaterThan(0)
    expect(await leftovers(runId)).toBe(0)
  })

  test('docker init’s Node.js shape under # syntax=docker/dockerfile:1 runs as a Swarm service', async () => {
    await runNpmProject('swarm')
  })
})

/** A repository whose root is a Compose project built with `build: .`, its output inside it. */
function composeRepository(): string {
  const repo = tmp()
  const write = (name: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(repo, name)), { recursive: true })
    fs.writeFileSync(path.join(repo, name), text)
  }
  write(
    'compose.yaml',
    `services:
  web:
    build: .
    environment: { HOP: web, PORT: '8080' }
    expose: ['8080']
x-latency-bench:
  load: { service: web }
`
  )
  write('Dockerfile', `FROM ${BASE_IMAGE}\nWORKDIR /app\nCOPY . .\nCMD ["python3", "relay.py"]\n`)
  write('.dockerignore', 'node_modules\n**/*.log\n')
  write('relay.py', fs.readFileSync(RELAY, 'utf8'))
  write('node_modules/big/index.js', 'x'.repeat(1_000_000))
  write('docs/debug.log', 'noise')
  write('.git/HEAD', 'ref: refs/heads/main\n')
  return repo
}

describeDocker('a Compose build: . at a repository root', () => {
  jest.setTimeout(900_000)

  test('sends what .dockerignore leaves, never the run’s output; a paired run reads each side’s context once and builds the same files once', async () => {
    const [head, base] = [composeRepository(), composeRepository()]
    const lines: string[] = []
    const log: Log = {
      info: m => lines.push(m),
      warn: m => lines.push(`warning: ${m}`),
      group: async (_, work) => work()
    }
    const [suiteId, baseSuiteId] = [randomUUID(), randomUUID()]
    const inputs = parseInputs({
      baseline: 'paired',
      topology: path.join(head, 'compose.yaml'),
      'baseline-topology': path.join(base, 'compose.yaml'),
      engine: 'docker',
      'base-image': BASE_IMAGE,
      profiles: 'minimal',
      runs: '2',
      'max-pairs': '3',
      requests: '10',
      'warmup-requests': '5',
      'out-dir': path.join(head, 'out')
    })
    const paired = await runPairedSuite(inputs, { log, suiteId, baseSuiteId })
    expectStorableResult(paired.head)
    expectStorableResult(paired.base)
    // Deployed afresh for every pair, each side's context read once, its size said.
    const contexts = lines.filter(l => /build context /.test(l))
    expect(contexts).toHaveLength(2)
    for (const [repo, line] of [head, base].map(r => [r, contexts.find(l => l.includes(r))])) {
      expect(line).toMatch(
        new RegExp(`build context ${repo}: 4 file\\(s\\), [0-9.]+ kB after ${repo}/\\.dockerignore`)
      )
    }
    // The same files on both sides are one image: built once, found by the other side.
    const builds = lines.filter(l => / with BuildKit$/.test(l))
    expect(builds).toHaveLength(1)
    const image = /building (\S+) /.exec(builds[0])![1]
    created.push(image)
    expect(lines.filter(l => l.includes(`using ${image}`)).length).toBeGreaterThanOrEqual(1)
    const files = (await output(image, ['find', '/app', '-type', 'f']))
      .split(/\r?\n/)
      .filter(Boolean)
    expect(files.sort()).toEqual(
      ['/app/.dockerignore', '/app/Dockerfile', '/app/compose.yaml', '/app/relay.py'].sort()
    )
    expect(await leftovers(suiteId)).toBe(0)
    expect(await leftovers(baseSuiteId)).toBe(0)
  })
})
