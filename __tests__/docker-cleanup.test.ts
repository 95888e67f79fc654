/**
 * Integration: whatever happens to a Docker suite, its labelled containers and networks go away:
 * on SIGINT through the suite's own handler; after SIGKILL through the action's `post:` step
 * (run as the runner runs it, with the state the main step saved), or outside the action through
 * the run's reaper; on demand with `cleanup`.
 *
 * @side-by-side: what is left, by run id; no figure.
 */
import { randomUUID } from 'node:crypto'
import Docker from 'dockerode'
import { cleanupCommand } from '../src/commands/cleanup'
import { LABEL } from '../src/engine/docker'
import { removeContainer } from '../src/engine/docker/container'
import { removeNetworkWhenFree } from '../src/engine/docker/network'
import { BASE_IMAGE, describeDocker, labelled } from './helpers/docker'
import { sleep } from './helpers/processes'
import { bundleSuiteChild, runPostStep, startChildSuite } from './helpers/suite-child'

/** A labelled network of a new run id, with a running container of the same labels on it. */
async function labelledSleeper() {
  const docker = new Docker()
  const runId = randomUUID()
  const labels = { [LABEL.tool]: 'true', [LABEL.runId]: runId, [LABEL.repository]: 'test' }
  const network = await docker.createNetwork({ Name: `glb-test-${runId}`, Labels: labels })
  const container = await docker.createContainer({
    Image: BASE_IMAGE,
    Cmd: ['sleep', '300'],
    Labels: labels,
    HostConfig: { NetworkMode: network.id }
  })
  await container.start()
  return { runId, network, container }
}

describeDocker('docker cleanup', () => {
  let child: string
  let post: string
  beforeAll(async () => {
    ;({ child, post } = await bundleSuiteChild())
  })

  async function startSuite() {
    const suite = await startChildSuite(child, 'docker')
    // Frontend, two routers and the load client.
    expect(await labelled(suite.runId)).toEqual({ containers: 4, networks: 1 })
    return suite
  }

  it('SIGINT removes every labelled container and network and exits 130', async () => {
    const suite = await startSuite()
    suite.proc.kill('SIGINT')
    expect(await suite.exited).toBe(130)
    expect(suite.output()).toContain('received SIGINT')
    expect(await labelled(suite.runId)).toEqual({ containers: 0, networks: 0 })
  })

  it('after SIGKILL, the post step removes the leftovers of the run id the main step saved', async () => {
    const suite = await startSuite()
    suite.proc.kill('SIGKILL')
    await suite.exited
    expect(await labelled(suite.runId)).toEqual({ containers: 4, networks: 1 })
    expect(runPostStep(post, suite)).toContain(
      `cleanup of run ${suite.runId}: removed 4 containers and 1 networks`
    )
    expect(await labelled(suite.runId)).toEqual({ containers: 0, networks: 0 })
  })

  it('after SIGKILL of a run outside the action, its reaper removes what the run left within a minute', async () => {
    const suite = await startChildSuite(child, 'docker', { action: false })
    const killed = Date.now()
    suite.proc.kill('SIGKILL')
    await suite.exited
    let left = await labelled(suite.runId)
    while ((left.containers > 0 || left.networks > 0) && Date.now() - killed < 60_000) {
      await sleep(500)
      left = await labelled(suite.runId)
    }
    expect(left).toEqual({ containers: 0, networks: 0 })
  })

  it('a network whose container another removal took first is removed once its endpoint goes', async () => {
    // A deployment's teardown met this: our removal of a container got 409 (another removal had
    // begun), returned, and the network still had the container's endpoint (403).
    const { runId, network, container } = await labelledSleeper()
    await expect(network.remove()).rejects.toMatchObject({ statusCode: 403 })
    const gone = sleep(1500).then(() => removeContainer(container))
    await removeNetworkWhenFree(network)
    await gone
    expect(await labelled(runId)).toEqual({ containers: 0, networks: 0 })
  })

  it('a sweep of earlier runs’ leftovers takes only what is old enough: a run beside it keeps its volumes', async () => {
    const docker = new Docker()
    const runId = randomUUID()
    const labels = { [LABEL.tool]: 'true', [LABEL.runId]: runId, [LABEL.repository]: runId }
    await docker.createVolume({ Name: `glb-test-${runId}`, Labels: labels })
    const volumes = async () =>
      (
        (
          await docker.listVolumes({
            filters: JSON.stringify({ label: [`${LABEL.runId}=${runId}`] })
          })
        ).Volumes ?? []
      ).length
    // What prepare() sweeps before a run: this repository's leftovers older than six hours.
    expect(await cleanupCommand.run({ repository: runId, 'older-than': '6h' }, [])).toBe(0)
    expect(await volumes()).toBe(1)
    expect(await cleanupCommand.run({ 'run-id': runId }, [])).toBe(0)
    expect(await volumes()).toBe(0)
  })

  it('the cleanup command sweeps by run id, and insists on a filter', async () => {
    const { runId } = await labelledSleeper()
    expect(await labelled(runId)).toEqual({ containers: 1, networks: 1 })
    await expect(cleanupCommand.run({}, [])).rejects.toThrow(/cleanup needs --run-id/)
    await expect(cleanupCommand.run({ 'older-than': 'soon' }, [])).rejects.toThrow(
      /input 'older-than' = 'soon'/
    )
    // Too young for an age-only sweep.
    expect(await cleanupCommand.run({ 'run-id': runId, 'older-than': '1h' }, [])).toBe(0)
    expect(await labelled(runId)).toEqual({ containers: 1, networks: 1 })
    expect(await cleanupCommand.run({ 'run-id': runId }, [])).toBe(0)
    expect(await labelled(runId)).toEqual({ containers: 0, networks: 0 })
  })
})
