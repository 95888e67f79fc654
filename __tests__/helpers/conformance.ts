import { runLoadClient, type ClientPlan } from '../../src/client/load-client'
import * as fs from 'node:fs'
import * as path from 'node:path'
import type { Engine } from '../../src/engine/types'
import { ServiceFailure } from '../../src/engine/types'
import { parseTopology, resolveTopology } from '../../src/topology/load'
import type { GnesTopology } from '../../src/topology/schema'
import { tmp } from './tmp'

/** One burst stream of `docs` documents in requests of 10. */
const plan = (docs: number, docBytes = 1000): ClientPlan => ({
  batchSize: 10,
  docBytes,
  streams: [{ docs, rate: null }]
})

/** How a conformance run makes one engine and sees what of its run is still around. */
export interface EngineUnderTest {
  make(): Engine
  /** Processes, containers, services or networks of the run still present (0 when clean). */
  leftovers(runId: string): Promise<number>
}

/** A standard case's topology, as GNES (the load client and the route dump are GNES's). */
export function gnesCase(id: string): GnesTopology {
  const { topology } = resolveTopology(id)
  if (topology.kind !== 'gnes') throw new Error(`case ${id} is not a GNES topology`)
  return topology
}

/**
 * Case 1 with a flag Router2's `gnes route` does not know, so Router2 dies at start (a model GNES
 * does not know is refused before anything starts).
 */
function brokenCase1() {
  const file = path.join(__dirname, '..', '..', 'topologies', 'case1.yml')
  const text = fs
    .readFileSync(file, 'utf8')
    .replace(
      'model: BaseRouter\n    in: { socket: PULL_CONNECT, peer: Router1 }',
      'model: BaseRouter\n    args: [--no_such_flag]\n    in: { socket: PULL_CONNECT, peer: Router1 }'
    )
  return parseTopology(text, 'broken.yml')
}

/**
 * The one lifecycle's contract, run against every driver (local processes, Docker containers,
 * Swarm services): the same messages, the same failure types, nothing left on any path.
 */
export function engineConformance(name: string, under: EngineUnderTest): void {
  describe(`${name} engine: lifecycle conformance`, () => {
    let engine: Engine
    beforeAll(async () => {
      engine = under.make()
      await engine.prepare()
    })
    afterAll(async () => {
      await engine.shutdown()
      expect(await under.leftovers(engine.runId)).toBe(0)
    })

    it('starts case 1, runs the client, reads the route dump, and stop() leaves nothing', async () => {
      const logDir = tmp()
      const dep = await engine.start(gnesCase('1'), {
        logDir,
        readyTimeoutMs: 90_000
      })
      expect(fs.readFileSync(path.join(logDir, 'Frontend-0.log'), 'utf8')).toContain('listening at')
      const [report] = await runLoadClient(dep, plan(30), 60)
      expect(report).toMatchObject({ requests: 3, responses: 3 })
      const lines = (await dep.readRouteDump()).trim().split('\n')
      expect(lines).toHaveLength(3)
      const routes = JSON.parse(lines[0]).routes.map((r: { service: string }) => r.service)
      expect(routes).toEqual(['FrontendService', 'BaseRouter', 'BaseRouter'])
      expect(fs.readFileSync(path.join(logDir, 'client-1.log'), 'utf8')).toContain('"responses": 3')
      await dep.stop()
      await dep.stop()
      expect(await under.leftovers(engine.runId)).toBe(0)
    })

    it('fails with a ServiceFailure naming the instance that dies and its last log lines', async () => {
      const started = Date.now()
      const error = await engine
        .start(brokenCase1(), { logDir: tmp(), readyTimeoutMs: 90_000 })
        .catch(e => e)
      expect(error).toBeInstanceOf(ServiceFailure)
      expect(error.message).toMatch(/^service Router2-0 exited \(code \d+\); last log lines:\n/)
      expect(error.message).toContain('unrecognized arguments: --no_such_flag')
      expect(Date.now() - started).toBeLessThan(60_000)
      expect(await under.leftovers(engine.runId)).toBe(0)
    })

    it('names every instance that is not ready by the deadline, with its log, and removes all', async () => {
      const error = await engine
        .start(resolveTopology('1').topology, { logDir: tmp(), readyTimeoutMs: 30 })
        .catch(e => e)
      expect(error).toBeInstanceOf(ServiceFailure)
      // The deadline covers creation too: instances not started yet are named as well.
      expect(error.message).toMatch(
        /^service Frontend-0, Router1-0, Router2-0 did not become ready within 0.03 s; last log lines:\n\[Frontend-0\]/
      )
      expect(error.message).toContain('[Router2-0]\n')
      expect(await under.leftovers(engine.runId)).toBe(0)
    })

    it('a failing client is a ServiceFailure naming it, and the topology stays usable', async () => {
      const dep = await engine.start(gnesCase('1'), {
        logDir: tmp(),
        readyTimeoutMs: 90_000
      })
      try {
        // A zero deadline fails the client's gRPC call at once.
        const error = await runLoadClient(dep, plan(10, 10), 0).catch(e => e)
        expect(error).toBeInstanceOf(ServiceFailure)
        // The client exits 1, or (seen on busy machines, any engine) hangs in its exit until the deadline.
        expect(error.message).toMatch(
          /^service client-1 (failed \(exit [1-9]\d*\)|did not finish within 0 s); last log lines:\n[^]*FutureTimeoutError/
        )
        const [report] = await runLoadClient(dep, plan(10, 10), 60)
        expect(report.responses).toBe(1)
      } finally {
        await dep.stop()
      }
    })

    it('shutdown() during a running case removes everything, and refuses later starts', async () => {
      const other = under.make()
      await other.prepare()
      await other.start(resolveTopology('3').topology, { logDir: tmp(), readyTimeoutMs: 90_000 })
      expect(await under.leftovers(other.runId)).toBeGreaterThan(0)
      await other.shutdown()
      expect(await under.leftovers(other.runId)).toBe(0)
      await expect(
        other.start(resolveTopology('1').topology, { logDir: tmp(), readyTimeoutMs: 1000 })
      ).rejects.toThrow(/engine: shut down/)
    })
  })
}
