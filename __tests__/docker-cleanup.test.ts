/**
 * Integration: whatever happens to a Docker suite, its labelled containers and networks go away:
 * on SIGINT through the suite's own handler; after SIGKILL through the action's `post:` step
 * (run as the runner runs it, with the state the main step saved); on demand with `cleanup`.
 */
import { spawn, spawnSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import Docker from 'dockerode'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { cleanupCommand } from '../src/commands/cleanup'
import { LABEL, STATE_RUN_ID } from '../src/engine/docker'
import { BASE_IMAGE, bundle, describeDocker, labelled, tmp } from './docker-helpers'

const root = path.join(__dirname, '..')
const sleep = (ms: number) => new Promise(r => setTimeout(r, ms))

/** A suite on the Docker engine in a child process, as the CLI or the action's main step runs it. */
const CHILD = `
import { parseInputs } from '${root}/src/config/inputs'
import { createDockerEngine, dockerEngineOptions } from '${root}/src/engine/docker'
import { runSuite } from '${root}/src/suite/run'
const inputs = parseInputs(JSON.parse(process.argv[2]))
const runId = process.env.GLB_RUN_ID
const engine = createDockerEngine(dockerEngineOptions(inputs, { runId }))
runSuite(inputs, { engine, suiteId: runId }).then(
  () => process.exit(0),
  err => {
    console.error(err.message)
    process.exit(1)
  }
)
`

/** Reads one value from an Actions state file (`name<<delimiter`, value, delimiter). */
function stateValue(file: string, name: string): string | undefined {
  const m = new RegExp(`^${name}<<(.+)\\n([^]*?)\\n\\1$`, 'm').exec(fs.readFileSync(file, 'utf8'))
  return m?.[2]
}

describeDocker('docker cleanup', () => {
  let child: string
  let post: string
  beforeAll(async () => {
    const dir = tmp()
    fs.writeFileSync(path.join(dir, 'child.ts'), CHILD)
    child = await bundle(path.join(dir, 'child.ts'), 'docker-suite-child.js')
    post = await bundle(path.join(root, 'src', 'post-index.ts'), 'docker-post.js')
  })

  /** Starts case 2 (it blocks 1 s per request) and resolves once the client is sending. */
  async function startSuite() {
    const runId = randomUUID()
    const stateFile = path.join(tmp(), 'state')
    fs.writeFileSync(stateFile, '')
    const inputs = {
      cases: '2',
      docs: '200',
      engine: 'docker',
      'base-image': BASE_IMAGE,
      'out-dir': tmp()
    }
    const proc = spawn(process.execPath, [child, JSON.stringify(inputs)], {
      env: { ...process.env, GLB_RUN_ID: runId, GITHUB_STATE: stateFile },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let output = ''
    proc.stdout.on('data', d => (output += d))
    proc.stderr.on('data', d => (output += d))
    const exited = new Promise<number | null>(r => proc.on('exit', code => r(code)))
    const until = Date.now() + 120_000
    while (!output.includes('services ready') && Date.now() < until) await sleep(100)
    expect(output).toContain('services ready')
    await sleep(1500)
    // Frontend, two routers and the load client.
    expect(await labelled(runId)).toEqual({ containers: 4, networks: 1 })
    return { proc, exited, runId, stateFile, output: () => output }
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
    // The runner hands saved state to the post step as STATE_<name>.
    const runId = stateValue(suite.stateFile, STATE_RUN_ID)
    expect(runId).toBe(suite.runId)
    const r = spawnSync(process.execPath, [post], {
      env: { ...process.env, [`STATE_${STATE_RUN_ID}`]: runId },
      encoding: 'utf8'
    })
    expect(r.status).toBe(0)
    expect(r.stdout).toContain(`cleanup of run ${runId}: removed 4 containers and 1 networks`)
    expect(await labelled(suite.runId)).toEqual({ containers: 0, networks: 0 })
  })

  it('the cleanup command sweeps by run id, and insists on a filter', async () => {
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
