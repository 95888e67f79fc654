/**
 * Integration: the Docker engine against the real daemon, with the offline-built GNES image
 * (scripts/docker-setup.sh). Small loads keep it quick.
 */
import { randomUUID } from 'node:crypto'
import { parseInputs } from '../src/config/inputs'
import { createDockerEngine, dockerEngineOptions } from '../src/engine/docker'
import { ResultSchema } from '../src/result/schema'
import type { Log } from '../src/suite/log'
import { runSuite } from '../src/suite/run'
import { resolveTopology } from '../src/topology/load'
import { BASE_IMAGE, describeDocker, labelled, tmp } from './docker-helpers'

const quiet: Log = { info: () => undefined, warn: () => undefined, group: (_n, work) => work() }

describeDocker('docker engine', () => {
  it('starts case 1, runs the client in a container and reads the dump through the API', async () => {
    const engine = createDockerEngine({
      gnesVersion: '0.0.47',
      baseImage: BASE_IMAGE,
      log: () => undefined
    })
    try {
      const meta = await engine.prepare()
      expect(meta).toMatchObject({ version: '0.0.47', tag: '0.0.47', vcs: null })
      expect(meta.buildDate).toMatch(/^\d{4}-\d\d-\d\dT/)
      const dep = await engine.start(resolveTopology('1').topology, {
        logDir: tmp(),
        readyTimeoutMs: 60_000
      })
      const report = await dep.runClient({ docs: 30, batchSize: 10, docBytes: 1000 }, 60)
      expect(report).toMatchObject({ requests: 3, responses: 3 })
      const lines = (await dep.readRouteDump()).trim().split('\n')
      expect(lines).toHaveLength(3)
      const routes = JSON.parse(lines[0]).routes.map((r: { service: string }) => r.service)
      expect(routes).toHaveLength(3)
      await dep.stop()
      expect(await labelled(engine.runId)).toEqual({ containers: 0, networks: 0 })
    } finally {
      await engine.shutdown()
    }
  })
})
