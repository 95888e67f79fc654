/**
 * Integration: the stateful example (examples/compose/stateful/: a web service and a database
 * with a named volume, a bind-mounted config file and a file secret) on Docker, as a run loads
 * it: it starts, answers through both services, its database writes to its volume, the slower
 * copy's query is slower, and stopping leaves no volume.
 *
 * @side-by-side: what the services answered and what is left; its one figure is a floor, the
 * 1 ms its config adds to the query, which a neighbour's load can only lengthen.
 */
import { randomUUID } from 'node:crypto'
import Docker from 'dockerode'
import * as path from 'node:path'
import { createDockerEngine } from '../src/engine/docker'
import type { Deployment, Engine } from '../src/engine/types'
import { loadTopologyFile } from '../src/topology/load'
import { BASE_IMAGE, describeDocker, labelled, TEST_ENGINE } from './helpers/docker'
import { getJson } from './helpers/get-json'
import { tmp } from './helpers/tmp'

const DIR = path.join(__dirname, '..', 'examples', 'compose', 'stateful')

jest.setTimeout(300_000)

type Answer = { row: { id: number; value: string }; hops: { web: number; db: number } }

async function deployed(files: string): Promise<{ engine: Engine; dep: Deployment }> {
  process.env.STATEFUL_IMAGE = BASE_IMAGE
  const topology = (() => {
    try {
      return loadTopologyFile(files)
    } finally {
      delete process.env.STATEFUL_IMAGE
    }
  })()
  const engine = createDockerEngine({ ...TEST_ENGINE, runId: randomUUID() })
  await engine.prepare(false)
  const dep = await engine.start(topology, { logDir: tmp(), readyTimeoutMs: 180_000 })
  return { engine, dep }
}

const volumesOf = async (runId: string) =>
  (
    await new Docker().listVolumes({
      filters: JSON.stringify({ label: [`io.gnes-latency-bench.run-id=${runId}`] })
    })
  ).Volumes

describeDocker('the stateful example on Docker', () => {
  test('answers through both services, its data in a volume of the run, none left after', async () => {
    const { engine, dep } = await deployed(path.join(DIR, 'compose.yaml'))
    try {
      const answer = await getJson<Answer>(dep.frontend.host, dep.frontend.port)
      expect(answer.row).toEqual({ id: 1, value: 'one' })
      expect(Object.keys(answer.hops).sort()).toEqual(['db', 'web'])
      expect((await volumesOf(engine.runId)).length).toBe(1)
    } finally {
      await dep.stop()
      await engine.shutdown()
    }
    expect(await labelled(engine.runId)).toEqual({ containers: 0, networks: 0 })
    expect(await volumesOf(engine.runId)).toEqual([])
  })

  test('the slower copy: its query takes at least the 1 ms its config adds', async () => {
    const files = `${path.join(DIR, 'compose.yaml')}+${path.join(DIR, 'slower.yaml')}`
    const { engine, dep } = await deployed(files)
    try {
      const answer = await getJson<Answer>(dep.frontend.host, dep.frontend.port)
      expect(answer.hops.db).toBeGreaterThanOrEqual(0.001)
    } finally {
      await dep.stop()
      await engine.shutdown()
    }
    expect(await volumesOf(engine.runId)).toEqual([])
  })
})
