/**
 * Integration: the swarm engine's lifecycle on the real daemon in swarm mode (one node, as
 * swarm-engine.test.ts): the engines' conformance suite, and a suite in a child process stopped
 * by SIGINT, or killed and cleaned up by the post step and the cleanup command.
 *
 * @side-by-side: what is started and what is left, by run id; no figure.
 */
import Docker from 'dockerode'
import { cleanupCommand } from '../src/commands/cleanup'
import { createSwarmEngine } from '../src/engine/swarm/engine'
import { engineConformance } from './helpers/conformance'
import { describeDocker, leftovers, TEST_ENGINE } from './helpers/docker'
import { bundleSuiteChild, runPostStep, startChildSuite } from './helpers/suite-child'
import { useSwarm } from './helpers/swarm'

useSwarm({ worker: false })

describeDocker('swarm engine', () => {
  engineConformance('swarm', {
    make: () => createSwarmEngine(TEST_ENGINE),
    leftovers
  })
})

describeDocker('swarm cleanup', () => {
  let child: string
  let post: string
  beforeAll(async () => {
    ;({ child, post } = await bundleSuiteChild())
  })

  async function startSuite() {
    const suite = await startChildSuite(child, 'swarm')
    // Three services, the overlay network, the client container and the task containers on this
    // node (with a worker up, some tasks may run there, out of this daemon's container list).
    expect(await leftovers(suite.runId)).toBeGreaterThanOrEqual(5)
    return suite
  }

  it('SIGINT removes every labelled service, container and network and exits 130', async () => {
    const suite = await startSuite()
    suite.proc.kill('SIGINT')
    expect(await suite.exited).toBe(130)
    expect(suite.output()).toContain('received SIGINT')
    expect(await leftovers(suite.runId)).toBe(0)
  })

  it('after SIGKILL, the post step and then the cleanup command leave nothing', async () => {
    const suite = await startSuite()
    suite.proc.kill('SIGKILL')
    await suite.exited
    expect(await leftovers(suite.runId)).toBeGreaterThanOrEqual(5)
    expect(runPostStep(post, suite)).toMatch(
      new RegExp(
        `cleanup of run ${suite.runId}: removed \\d+ containers and 1 networks, 3 services, 0 configs and 0 secrets`
      )
    )
    expect(await cleanupCommand.run({ 'run-id': suite.runId }, [])).toBe(0)
    // A failure names what is left.
    const docker = new Docker()
    const filters = JSON.stringify({ label: [`io.gnes-latency-bench.run-id=${suite.runId}`] })
    const left = [
      ...(await docker.listContainers({ all: true, filters })).map(
        c => `container ${c.Names[0]} ${c.State}`
      ),
      ...(await docker.listNetworks({ filters })).map(n => `network ${n.Name}`),
      ...(await docker.listServices({ filters })).map(sv => `service ${sv.Spec?.Name}`)
    ]
    expect(left).toEqual([])
  })
})
