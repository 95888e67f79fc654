/**
 * Integration (issue 54): a Compose health check on the real Docker daemon, run by the engine, not
 * by Docker. `web` turns healthy 2 s after its start under `interval: 30s, start_interval: 1s,
 * start_period: 20s`, and is ready within seconds, not after the interval; `reader`, which waits
 * for it (service_healthy), passes its first check at once. Each check leaves a line in
 * /tmp/checks, so the lines count the checks: none runs once its service is ready, and Docker
 * runs none in any container.
 */
import { randomUUID } from 'node:crypto'
import Docker from 'dockerode'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { createDockerEngine } from '../src/engine/docker'
import { readContainerFile } from '../src/engine/docker/archive'
import type { Deployment, Engine } from '../src/engine/types'
import { loadTopologyFile } from '../src/topology/load'
import { BASE_IMAGE, describeDocker, labelled, TEST_ENGINE } from './helpers/docker'
import { tmp } from './helpers/tmp'

/** The file: web serves /tmp, where `ready` appears 2 s after it starts; reader fetches it. */
const compose = `
services:
  web:
    image: ${BASE_IMAGE}
    command: [sh, -c, '(sleep 2; touch /tmp/ready) & exec python3 -m http.server 8000 --directory /tmp']
    expose: ['8000']
    healthcheck:
      test: echo check >> /tmp/checks; test -f /tmp/ready
      interval: 30s
      start_interval: 1s
      start_period: 20s
      timeout: 5s
  reader:
    image: ${BASE_IMAGE}
    command:
      [sh, -c, "python3 -c \\"import urllib.request as u; u.urlopen('http://web:8000/ready')\\" && exec sleep infinity"]
    healthcheck:
      test: [CMD, sh, -c, 'echo check >> /tmp/checks']
      interval: 1s
    depends_on:
      web: { condition: service_healthy }
x-latency-bench:
  load: { service: web }
`

/** The run's containers by service name. */
async function containers(runId: string): Promise<Map<string, Docker.Container>> {
  const docker = new Docker()
  const filters = JSON.stringify({ label: [`io.gnes-latency-bench.run-id=${runId}`] })
  const list = await docker.listContainers({ all: true, filters })
  return new Map(list.map(c => [/-(\w+)-\d+$/.exec(c.Names[0])![1], docker.getContainer(c.Id)]))
}

/** How many checks ran in a container. */
const checks = async (container: Docker.Container): Promise<number> =>
  (await readContainerFile(container, '/tmp/checks')).split('\n').filter(Boolean).length

describeDocker('a Compose health check on Docker', () => {
  jest.setTimeout(120_000)
  let engine: Engine
  let dep: Deployment | undefined
  let readySec: number
  let c: Map<string, Docker.Container>

  beforeAll(async () => {
    const dir = tmp()
    fs.writeFileSync(path.join(dir, 'compose.yaml'), compose)
    engine = createDockerEngine({ ...TEST_ENGINE, runId: randomUUID() })
    await engine.prepare(false)
    const start = performance.now()
    dep = await engine.start(loadTopologyFile(path.join(dir, 'compose.yaml')), {
      logDir: tmp(),
      readyTimeoutMs: 60_000
    })
    readySec = (performance.now() - start) / 1000
    c = await containers(engine.runId)
  })

  afterAll(async () => {
    await dep?.stop()
    await engine?.shutdown()
    if (engine) expect(await labelled(engine.runId)).toEqual({ containers: 0, networks: 0 })
  })

  test('ready within seconds of turning healthy, not after the 30 s interval', async () => {
    expect(readySec).toBeLessThan(10)
    // Failed checks at once and every start interval, then the one that passed.
    const ran = await checks(c.get('web')!)
    expect(ran).toBeGreaterThanOrEqual(2)
    expect(ran).toBeLessThanOrEqual(8)
  })

  test('a dependant starts once the check passed, and its own first check is at once', async () => {
    // reader exits unless web served /tmp/ready: the deployment standing says it did.
    expect((await c.get('reader')!.inspect()).State.Running).toBe(true)
    expect(await checks(c.get('reader')!)).toBe(1)
  })

  test('no check runs once ready, and Docker runs none', async () => {
    const before = [await checks(c.get('web')!), await checks(c.get('reader')!)]
    // Three of reader's intervals: Docker's check would have run three times more.
    await sleep(3000)
    expect([await checks(c.get('web')!), await checks(c.get('reader')!)]).toEqual(before)
    for (const container of c.values()) {
      const info = await container.inspect()
      expect(info.Config.Healthcheck).toEqual({ Test: ['NONE'] })
      expect(info.State.Health).toBeUndefined()
    }
  })
})
