/**
 * Integration: a Compose file's mounts, secrets and configs on a one-node swarm
 * (fixtures/compose-keys/swarm-files.yaml, loaded as a run loads it). Each file is read from
 * inside the service (it serves its own file system over HTTP), each Swarm object from the
 * manager, and after the stop nothing of the run is left: no service, container, network,
 * volume, secret or config.
 *
 * @side-by-side: what the engine mounted and removed on the swarm; no figure.
 */
import Docker from 'dockerode'
import * as fs from 'node:fs'
import * as http from 'node:http'
import * as path from 'node:path'
import { createSwarmEngine } from '../src/engine/swarm/engine'
import type { Deployment, Engine } from '../src/engine/types'
import { loadTopologyFile } from '../src/topology/load'
import { BASE_IMAGE, describeDocker, leftovers, TEST_ENGINE } from './helpers/docker'
import { useSwarm } from './helpers/swarm'
import { tmp } from './helpers/tmp'

const DIR = path.join(__dirname, 'fixtures', 'compose-keys')
const FILE = path.join(DIR, 'swarm-files.yaml')
/** A value no file holds, so what the service serves can only come from the variable. */
const API_KEY = `key-${process.pid}-${Date.now()}`

/** GET `file` from the service at host:port, as text; the status with it. */
function get(host: string, port: number, file: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host, port, path: file, agent: false, timeout: 10_000 }, res => {
        let text = ''
        res.on('data', d => (text += d))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }))
      })
      .on('error', reject)
  })
}

/** The run's objects of one kind by their labels, as the manager lists them. */
const filters = (runId: string) =>
  JSON.stringify({ label: [`io.gnes-latency-bench.run-id=${runId}`] })

useSwarm({ worker: false })

describeDocker('Compose mounts, secrets and configs on a swarm', () => {
  jest.setTimeout(120_000)
  let engine: Engine
  let dep: Deployment
  beforeAll(async () => {
    const variables = { KEYS_IMAGE: BASE_IMAGE, KEYS_API_KEY: API_KEY }
    Object.assign(process.env, variables)
    let topology
    try {
      topology = loadTopologyFile(FILE)
    } finally {
      for (const k of Object.keys(variables)) delete process.env[k]
    }
    engine = createSwarmEngine(TEST_ENGINE)
    await engine.prepare(false)
    dep = await engine.start(topology, { logDir: tmp(), readyTimeoutMs: 180_000 })
  }, 300_000)
  afterAll(() => engine?.shutdown(), 120_000)
  const read = (file: string) => get(dep.frontend.host, dep.frontend.port, file)

  test('each file is where Compose puts it, read from inside the service', async () => {
    const token = fs.readFileSync(path.join(DIR, 'token.txt'), 'utf8')
    const motd = fs.readFileSync(path.join(DIR, 'common.env'), 'utf8')
    const services = fs.readFileSync(path.join(DIR, 'app', 'services.py'), 'utf8')
    expect(await read('/app-ro/services.py')).toEqual({ status: 200, text: services })
    expect(await read('/run/secrets/token')).toEqual({ status: 200, text: token })
    expect(await read('/run/secrets/api-key')).toEqual({ status: 200, text: API_KEY })
    expect(await read('/etc/motd.txt')).toEqual({ status: 200, text: motd })
    expect(await read('/etc/inline.txt')).toEqual({ status: 200, text: `inline ${API_KEY}` })
    // The volumes and the tmpfs are directories there (http.server lists a directory).
    for (const dir of ['/data/', '/anonymous/', '/cache/']) {
      expect((await read(dir)).status).toBe(200)
    }
  })

  test('secrets and configs are Swarm objects of the deployment, not bind mounts', async () => {
    const docker = new Docker()
    const list = await docker.listServices({ filters: filters(engine.runId) })
    const spec = (name: string) => {
      const s = list.find(l => l.Spec!.Name!.endsWith(`-${name}`))
      return s!.Spec!.TaskTemplate as {
        ContainerSpec: {
          Mounts?: { Type: string; Target: string; ReadOnly?: boolean }[]
          Secrets?: { File: { Name: string; Mode: number } }[]
          Configs?: { File: { Name: string; Mode: number } }[]
        }
        Placement?: { Constraints?: string[] }
      }
    }
    const files = spec('files').ContainerSpec
    expect(files.Secrets!.map(s => [s.File.Name, s.File.Mode]).sort()).toEqual([
      ['/run/secrets/api-key', 0o444],
      ['/run/secrets/token', 0o444]
    ])
    expect(files.Configs!.map(s => s.File.Name).sort()).toEqual([
      '/etc/inline.txt',
      '/etc/motd.txt'
    ])
    expect(files.Mounts!.map(m => [m.Type, m.Target]).sort()).toEqual([
      ['bind', '/app-ro'],
      ['tmpfs', '/cache'],
      ['volume', '/anonymous'],
      ['volume', '/data']
    ])
    expect(files.Mounts!.find(m => m.Target === '/app-ro')!.ReadOnly).toBe(true)
    // `handed` mounts nothing of this node, so nothing holds it here.
    const handed = spec('handed')
    expect(handed.ContainerSpec.Mounts!.map(m => m.Type)).toEqual(['tmpfs'])
    expect(handed.Placement?.Constraints ?? []).toEqual([])
    // Services mounting the same file share one object: token and motd once, api_key, inline.
    const secrets = await docker.listSecrets({ filters: filters(engine.runId) })
    const configs = await docker.listConfigs({ filters: filters(engine.runId) })
    expect([secrets.length, configs.length]).toEqual([2, 2])
    const volumes = (await docker.listVolumes({ filters: filters(engine.runId) })).Volumes
    expect(volumes.length).toBe(2)
  })

  test('the stop leaves nothing: services, containers, networks, volumes, secrets, configs', async () => {
    await dep.stop()
    expect(await leftovers(engine.runId)).toBe(0)
  })
})
