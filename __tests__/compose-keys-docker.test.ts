/**
 * Integration: every Compose key the benchmark honours, in its forms, run for real on Docker. One
 * deployment of one Compose file (fixtures/compose-keys/compose.yaml, loaded as a run loads it)
 * serves every check; each reads what a key did from the running containers (inspect) or from
 * the services' own answers, never from the translation.
 *
 * @side-by-side: what each key did to the containers; no figure.
 */
import { randomUUID } from 'node:crypto'
import Docker from 'dockerode'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { createDockerEngine } from '../src/engine/docker'
import type { Deployment, Engine } from '../src/engine/types'
import { readContainerFile } from '../src/engine/docker/archive'
import { platformName } from '../src/engine/docker/platform'
import { loadTopologyFile } from '../src/topology/load'
import { BASE_IMAGE, describeDocker, dockerUp, labelled, TEST_ENGINE } from './helpers/docker'
import { getJson } from './helpers/get-json'
import { tmp } from './helpers/tmp'

const FILE = path.join(__dirname, 'fixtures', 'compose-keys', 'compose.yaml')
const MiB = 1024 ** 2

type Inspect = Docker.ContainerInspectInfo
type Answer = {
  argv: string[]
  env: Record<string, string>
  greeting: string | null
  hostname: string
  peers: Record<string, { status?: number; greeting?: string | null; env?: Record<string, string> }>
  leaves: string[]
}

/** The run's containers, inspected, by instance name (`leaf-1`). */
async function inspectAll(runId: string): Promise<Map<string, Inspect>> {
  const docker = new Docker()
  const filters = JSON.stringify({ label: [`io.gnes-latency-bench.run-id=${runId}`] })
  const list = await docker.listContainers({ all: true, filters })
  const named = await Promise.all(
    list.map(
      async c =>
        [/-(\w+-\d+)$/.exec(c.Names[0])![1], await docker.getContainer(c.Id).inspect()] as const
    )
  )
  return new Map(named)
}

/** KEYS_API_KEY: a value no file holds, so what a container has can only come from it. */
const variables = {
  KEYS_FROM_RUN: 'from the run',
  KEYS_IMAGE: BASE_IMAGE,
  KEYS_API_KEY: `key-${process.pid}-${Date.now()}`
}

jest.setTimeout(300_000)

/** The one deployment every check reads, and what was read from it once it was ready. */
let engine: Engine
let dep: Deployment
let logDir: string
let answer: Answer
let c: Map<string, Inspect>

const at = (instance: string): Inspect => {
  const found = c.get(instance)
  if (!found) throw new Error(`no container ${instance} among ${[...c.keys()].join(', ')}`)
  return found
}
const env = (instance: string) =>
  Object.fromEntries(
    at(instance).Config.Env.map(e => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)])
  )

if (dockerUp) {
  beforeAll(async () => {
    // platform: the daemon's own, which is what the deployment that every check reads passed.
    const info = (await new Docker().info()) as { OSType: string; Architecture: string }
    const platform = platformName({ os: info.OSType, architecture: info.Architecture })
    Object.assign(process.env, { ...variables, KEYS_PLATFORM: platform })
    let topology
    try {
      topology = loadTopologyFile(FILE)
    } finally {
      for (const k of [...Object.keys(variables), 'KEYS_PLATFORM']) delete process.env[k]
    }
    engine = createDockerEngine({ ...TEST_ENGINE, runId: randomUUID() })
    await engine.prepare(false)
    logDir = tmp()
    dep = await engine.start(topology, { logDir, readyTimeoutMs: 180_000 })
    answer = await getJson<Answer>(dep.frontend.host, dep.frontend.port)
    c = await inspectAll(engine.runId)
  }, 300_000)

  afterAll(async () => {
    await dep?.stop()
    await engine?.shutdown()
  })
}

describeDocker('Compose keys on Docker: what runs, and with what', () => {
  test('profiles, scale and deploy.replicas: the containers that run', () => {
    const states = Object.fromEntries([...c].map(([name, i]) => [name, i.State.Status]))
    expect(states).toEqual({
      'api-0': 'running',
      'db-0': 'running',
      'job-0': 'exited',
      'leaf-0': 'running',
      'leaf-1': 'running',
      'static-0': 'running',
      'static-1': 'running',
      'extra-0': 'running'
    })
  })

  test('build: the long form (dockerfile, an argument from .env, target) and the string form', () => {
    // The argument reached the build; the target stage ran, and the stage after it did not.
    expect(answer.greeting).toBe('hello from .env')
    // `build: ./app`: the context's default Dockerfile, which bakes no greeting.
    expect(answer.peers['http://db:7000/'].greeting).toBeNull()
    expect(at('db-0').Image).not.toBe(at('api-0').Image)
    expect(at('job-0').Image).toBe(at('db-0').Image)
  })

  test('image, with interpolation from the environment', () => {
    expect(at('static-0').Config.Image).toBe(BASE_IMAGE)
    expect(at('extra-0').Config.Image).toBe(BASE_IMAGE)
  })

  test("entrypoint and command: strings split as Compose splits them, lists as given, the image's own", () => {
    expect(at('api-0').Config.Entrypoint).toEqual(['python3', '/services.py'])
    expect(at('api-0').Config.Cmd).toEqual(['api', '--label', 'two words'])
    expect(answer.argv).toEqual(['/services.py', 'api', '--label', 'two words'])
    // db keeps its image's entrypoint; the job's list entrypoint runs without a command.
    expect(at('db-0').Config.Entrypoint).toEqual(['python3', '/services.py'])
    expect(at('db-0').Config.Cmd).toEqual(['db'])
    expect(at('job-0').Config.Entrypoint).toEqual(['python3', '/services.py', 'job'])
    expect(at('job-0').Config.Cmd ?? []).toEqual([])
    expect(at('static-1').Config.Cmd).toEqual(['python3', '-m', 'http.server', '9000'])
  })

  test('environment (list and mapping), env_file (string, list, optional) and interpolation', () => {
    expect(answer.env).toMatchObject({
      PORT: '8080',
      COST: '$5',
      PRICE: '5$',
      MOOD: 'calm',
      KEYS_FROM_RUN: 'from the run'
    })
    expect(answer.peers['http://db:7000/'].env).toMatchObject({
      A: 'from-common',
      B: 'from-db-env',
      C: 'from-environment',
      GREETING_AGAIN: 'hello from .env',
      PORT: '7000'
    })
    expect(env('leaf-1')).toMatchObject({ A: 'from-common', B: 'from-common', PORT: '8080' })
  })
})

describeDocker('Compose keys on Docker: how services are reached and started', () => {
  test('ports and expose: the load enters the container side of ports; nothing is published', () => {
    expect(dep.frontend.port).toBe(8080)
    expect(dep.frontend.host).toBe(Object.values(at('api-0').NetworkSettings.Networks)[0].IPAddress)
    for (const [, i] of c) {
      expect(Object.values(i.HostConfig.PortBindings ?? {}).flat()).toEqual([])
      expect(Object.values(i.NetworkSettings.Ports ?? {}).filter(Boolean)).toEqual([])
    }
    // expose: db answers on 7000, static on 9000.
    expect(answer.peers['http://files:9000/']).toEqual({ status: 200 })
  })

  test('depends_on: every condition held when its dependant started', () => {
    // service_healthy: api exits at start unless db is healthy, and so does the job.
    expect(fs.readFileSync(path.join(logDir, 'job-0.log'), 'utf8')).toContain(
      'job saw db healthy: True'
    )
    // service_completed_successfully: api started once the job had exited 0.
    expect(at('job-0').State.ExitCode).toBe(0)
    const time = (t: string) => Date.parse(t)
    expect(time(at('api-0').State.StartedAt)).toBeGreaterThanOrEqual(
      time(at('job-0').State.FinishedAt)
    )
    // The short list (service_started): both leaves started after both static replicas.
    const leafStart = Math.min(...['leaf-0', 'leaf-1'].map(n => time(at(n).State.StartedAt)))
    const staticStart = Math.max(...['static-0', 'static-1'].map(n => time(at(n).State.StartedAt)))
    expect(leafStart).toBeGreaterThanOrEqual(staticStart)
    // required: false: ghost does not run, and api runs without it.
    expect([...c.keys()].some(n => n.startsWith('ghost'))).toBe(false)
  })

  test('healthcheck: run by the engine in both test forms, none by Docker in any container', () => {
    // db (CMD) and both leaves (a string, CMD-SHELL) passed theirs: the deployment is ready, and
    // the job saw db healthy. Docker runs no check: not theirs, not static's image's own.
    expect(fs.readFileSync(path.join(logDir, 'job-0.log'), 'utf8')).toContain(
      'job saw db healthy: True'
    )
    for (const [, i] of c) {
      expect(i.Config.Healthcheck).toEqual({ Test: ['NONE'] })
      expect(i.State.Health).toBeUndefined()
    }
  })
})

describeDocker('Compose keys on Docker: limits, networks, the ignored keys', () => {
  test('deploy.resources.limits, and cpus and mem_limit beside them: each container’s limits', () => {
    const limits = (n: string) => ({
      cpus: at(n).HostConfig.NanoCpus,
      memory: at(n).HostConfig.Memory
    })
    expect(limits('api-0')).toEqual({ cpus: 0.5e9, memory: 96 * MiB })
    expect(limits('db-0')).toEqual({ cpus: 0.25e9, memory: 80 * MiB })
    expect(limits('leaf-0')).toEqual({ cpus: 0.2e9, memory: 64 * MiB })
    expect(limits('leaf-1')).toEqual({ cpus: 0.2e9, memory: 64 * MiB })
    expect(limits('static-0')).toEqual({ cpus: 0, memory: 0 })
  })

  test('networks: one network for all, with the aliases each network entry names', () => {
    const networks = new Set([...c.values()].flatMap(i => Object.keys(i.NetworkSettings.Networks)))
    expect(networks.size).toBe(1)
    // `leaves` answers with both leaf replicas; `files` (static) and `database` (db) answer too.
    const leafAddresses = ['leaf-0', 'leaf-1']
      .map(n => Object.values(at(n).NetworkSettings.Networks)[0].IPAddress)
      .sort()
    expect(answer.leaves).toEqual(leafAddresses)
    expect(Object.values(at('db-0').NetworkSettings.Networks)[0].Aliases).toContain('database')
  })

  test('links: the job reached db by the name its link gives it', () => {
    expect(Object.values(at('db-0').NetworkSettings.Networks)[0].Aliases).toContain('linked-db')
    // The job asks http://linked-db:7000/ and exits 0 only with db's answer.
    expect(fs.readFileSync(path.join(logDir, 'job-0.log'), 'utf8')).toContain(
      'job saw db healthy: True'
    )
    expect(at('job-0').State.ExitCode).toBe(0)
  })

  test('the ignored keys change nothing: restart, hostname, read_only, tty, container_name', () => {
    const extra = at('extra-0')
    expect(['', 'no']).toContain(extra.HostConfig.RestartPolicy?.Name ?? '')
    expect(extra.Config.Hostname).toBe('extra-0')
    expect(extra.HostConfig.ReadonlyRootfs).toBe(false)
    expect(extra.Config.Tty).toBe(false)
    expect(extra.Name).not.toBe('/keys-extra')
  })

  test('user, working_dir, stop_signal, extra_hosts, shm_size, ulimits, runtime: the container’s own', () => {
    const extra = at('extra-0')
    expect(extra.Config.User).toBe('1000:1000')
    expect(extra.Config.WorkingDir).toBe('/srv')
    expect((extra.Config as { StopSignal?: string }).StopSignal).toBe('SIGTERM')
    expect(extra.HostConfig.ExtraHosts).toEqual(['extra.example:10.1.2.3'])
    expect(extra.HostConfig.ShmSize).toBe(32 * MiB)
    expect(extra.HostConfig.Ulimits).toEqual([
      { Name: 'nofile', Soft: 1024, Hard: 2048 },
      { Name: 'nproc', Soft: 512, Hard: 512 }
    ])
    expect(extra.HostConfig.Runtime).toBe('runc')
  })

  test('pids_limit, deploy.resources.limits.pids, cap_drop, security_opt: what restricts each container', () => {
    const extra = at('extra-0').HostConfig
    expect(extra.PidsLimit).toBe(200)
    expect(extra.CapDrop).toEqual(['NET_RAW', 'MKNOD'])
    expect(extra.SecurityOpt).toEqual(['no-new-privileges=true'])
    for (const leaf of ['leaf-0', 'leaf-1']) expect(at(leaf).HostConfig.PidsLimit).toBe(100)
    // Where the file asks for none, the daemon's defaults stay.
    expect(at('api-0').HostConfig.CapDrop ?? []).toEqual([])
    expect(at('api-0').HostConfig.SecurityOpt ?? []).toEqual([])
    expect(at('api-0').HostConfig.PidsLimit ?? 0).toBe(0)
  })

  test('volumes, tmpfs, secrets and configs: mounted where Compose mounts them', async () => {
    const mounts = Object.fromEntries(
      at('extra-0').Mounts.map(m => [m.Destination, { type: m.Type, rw: m.RW, name: m.Name }])
    )
    const dir = path.dirname(FILE)
    expect(mounts['/app-ro']).toMatchObject({ type: 'bind', rw: false })
    expect(mounts['/run/secrets/token']).toMatchObject({ type: 'bind', rw: false })
    expect(mounts['/etc/motd.txt']).toMatchObject({ type: 'bind', rw: false })
    for (const v of ['/app-copy', '/data', '/anonymous']) {
      expect(mounts[v]).toMatchObject({ type: 'volume', rw: true })
    }
    const container = new Docker().getContainer(at('extra-0').Id)
    const read = (file: string) => readContainerFile(container, file)
    expect(await read('/run/secrets/token')).toBe(
      fs.readFileSync(path.join(dir, 'token.txt'), 'utf8')
    )
    expect(await read('/etc/motd.txt')).toBe(fs.readFileSync(path.join(dir, 'common.env'), 'utf8'))
    // A secret from a variable and a config's inline content: files written before the start.
    expect(await read('/run/secrets/api-key')).toBe(variables.KEYS_API_KEY)
    expect(await read('/etc/inline.txt')).toBe(`inline ${variables.KEYS_API_KEY}`)
    // The writable directory is a copy: the same files, in a volume of the run.
    const original = fs.readFileSync(path.join(dir, 'app', 'services.py'), 'utf8')
    expect(await read('/app-copy/services.py')).toBe(original)
    expect(await read('/app-ro/services.py')).toBe(original)
    const volumes = await new Docker().listVolumes({
      filters: JSON.stringify({ label: [`io.gnes-latency-bench.run-id=${engine.runId}`] })
    })
    expect(volumes.Volumes.map(v => v.Name).sort()).toEqual(
      [mounts['/app-copy'].name, mounts['/data'].name, mounts['/anonymous'].name].sort()
    )
  })

  test('stopping leaves nothing behind, volumes included', async () => {
    await dep.stop()
    expect(await labelled(engine.runId)).toEqual({ containers: 0, networks: 0 })
    const volumes = await new Docker().listVolumes({
      filters: JSON.stringify({ label: [`io.gnes-latency-bench.run-id=${engine.runId}`] })
    })
    expect(volumes.Volumes).toEqual([])
  })
})
