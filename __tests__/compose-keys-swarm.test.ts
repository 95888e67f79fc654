/**
 * Integration: Swarm's Compose keys on the two-node swarm of scripts/swarm-setup.sh --worker (a
 * second dockerd in a network namespace): `deploy.placement` puts a service on the worker, which
 * the load's service on the manager reaches across the overlay; a `service_completed_successfully`
 * dependency is a one-shot job that completes before its dependant is created; and a placement no
 * node satisfies fails the start, naming the service and its constraints, with nothing left.
 *
 * @side-by-side: placement and order on the swarm; no figure.
 */
import Docker from 'dockerode'
import * as path from 'node:path'
import { createSwarmEngine } from '../src/engine/swarm/engine'
import { ServiceFailure } from '../src/engine/types'
import { loadTopologyFile } from '../src/topology/load'
import type { Topology } from '../src/topology/schema'
import { BASE_IMAGE, describeDocker, leftovers, TEST_ENGINE } from './helpers/docker'
import { getJson } from './helpers/get-json'
import { imageOnWorker, useSwarm, WORKER } from './helpers/swarm'
import { tmp } from './helpers/tmp'

const FILE = path.join(__dirname, 'fixtures', 'compose-keys', 'swarm.yaml')

/** The Swarm file, loaded with `vars` in the environment as a run would load it. */
function topology(vars: Record<string, string> = {}): Topology {
  const all = { KEYS_IMAGE: BASE_IMAGE, ...vars }
  Object.assign(process.env, all)
  try {
    return loadTopologyFile(FILE)
  } finally {
    for (const k of Object.keys(all)) delete process.env[k]
  }
}

/** The run's Swarm services by topology service name. */
async function services(runId: string): Promise<Map<string, Docker.Service>> {
  const filters = JSON.stringify({ label: [`io.gnes-latency-bench.run-id=${runId}`] })
  const list = await new Docker().listServices({ filters })
  return new Map(list.map(s => [s.Spec!.Name!.split('-').pop()!, s]))
}

useSwarm({ worker: true })

describeDocker('Compose keys on a two-node swarm', () => {
  jest.setTimeout(300_000)

  test('deploy.placement puts remote on the worker; api waits for the one-shot job', async () => {
    // `remote` runs the test base image on the worker.
    await imageOnWorker(BASE_IMAGE)
    const engine = createSwarmEngine(TEST_ENGINE)
    try {
      await engine.prepare(false)
      const dep = await engine.start(topology(), { logDir: tmp(), readyTimeoutMs: 180_000 })
      const manager = ((await new Docker().info()) as { Name: string }).Name
      expect(dep.nodes).toEqual({ api: [manager], db: [manager], job: [manager], remote: [WORKER] })
      // api, on the manager, reached remote on the worker across the overlay.
      const answer = await getJson<{ peers: Record<string, unknown> }>(
        dep.frontend.host,
        dep.frontend.port
      )
      expect(answer.peers['http://remote:9000/']).toEqual({ status: 200 })
      const byName = await services(engine.runId)
      expect(byName.get('remote')!.Spec!.TaskTemplate).toMatchObject({
        Placement: { Constraints: [`node.hostname==${WORKER}`] }
      })
      expect(byName.get('remote')!.Spec!.EndpointSpec?.Mode).toBe('dnsrr')
      // The job's one task completed with exit code 0 before api's service was created.
      const tasks = (await new Docker().listTasks({
        filters: JSON.stringify({ service: [byName.get('job')!.ID] })
      })) as {
        Status: { State: string; Timestamp: string; ContainerStatus: { ExitCode: number } }
      }[]
      expect(tasks.map(t => [t.Status.State, t.Status.ContainerStatus.ExitCode])).toEqual([
        ['complete', 0]
      ])
      expect(Date.parse(byName.get('api')!.CreatedAt!)).toBeGreaterThanOrEqual(
        Date.parse(tasks[0].Status.Timestamp)
      )
      await dep.stop()
      expect(await leftovers(engine.runId)).toBe(0)
    } finally {
      await engine.shutdown()
    }
  })

  test('a placement no node satisfies fails the start, naming the service and its constraints', async () => {
    const engine = createSwarmEngine(TEST_ENGINE)
    const t0 = Date.now()
    try {
      await engine.prepare(false)
      const started = engine.start(topology({ KEYS_WORKER: 'nowhere' }), {
        logDir: tmp(),
        readyTimeoutMs: 180_000
      })
      const error = await started.catch(e => e)
      expect(error).toBeInstanceOf(ServiceFailure)
      expect(error.message).toMatch(
        /^service remote-0 cannot be placed: no suitable node \(scheduling constraints not satisfied on 2 nodes\); its placement constraints: node\.hostname==nowhere/
      )
      // Told as soon as Swarm says so, not when the start's timeout runs out.
      expect(Date.now() - t0).toBeLessThan(60_000)
    } finally {
      await engine.shutdown()
    }
    expect(await leftovers(engine.runId)).toBe(0)
  })
})
