import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { RUN_IDS } from '../../src/engine/docker/run-ids'
import { bundle, buildEntry } from './bundle'
import { BASE_IMAGE } from './docker'
import { tmp } from './tmp'
import { sleep } from './processes'

/**
 * A suite in a child process, as the CLI or the action's main step runs it, for the cleanup tests
 * of the Docker-based engines: interrupt it, kill it, then run the `post:` step as the runner does.
 */
const root = path.join(__dirname, '..', '..')
const CHILD = `
import { saveState } from '${root}/node_modules/@actions/core'
import { keepCleanupState, STATE_ENGINE } from '${root}/src/action/state'
import { parseInputs } from '${root}/src/config/inputs'
import { runSuite } from '${root}/src/pipeline/suite/run-suite'
// As the action's main step saves the engine and its run id for its post step; as the CLI, a
// reaper removes what the run leaves.
const inputs = parseInputs(JSON.parse(process.argv[2]))
const action = Boolean(process.env.GITHUB_STATE)
if (action) saveState(STATE_ENGINE, inputs.engine)
const options = { suiteId: process.env.GLB_RUN_ID, keepRunId: action ? keepCleanupState().keepRunId : undefined }
runSuite(inputs, options).then(
  () => process.exit(0),
  err => {
    console.error(err.message)
    process.exit(1)
  }
)
`

/** The child suite and the action's post step, bundled into build/. */
export async function bundleSuiteChild(): Promise<{ child: string; post: string }> {
  const dir = tmp()
  fs.writeFileSync(path.join(dir, 'child.ts'), CHILD)
  return {
    child: await bundle(path.join(dir, 'child.ts'), 'suite-child.js'),
    post: await buildEntry('post')
  }
}

export interface ChildSuite {
  proc: ChildProcess
  exited: Promise<number | null>
  runId: string
  stateFile: string
  output(): string
}

/**
 * Starts case 2 (it blocks 1 s per request) on `engine`; resolves once the client is sending. As
 * the action's main step (its state file set), unless `action` is false: then as the CLI.
 */
export async function startChildSuite(
  child: string,
  engine: string,
  { action = true } = {}
): Promise<ChildSuite> {
  const runId = randomUUID()
  const stateFile = path.join(tmp(), 'state')
  fs.writeFileSync(stateFile, '')
  const inputs = { cases: '2', docs: '200', engine, 'base-image': BASE_IMAGE, 'out-dir': tmp() }
  const proc = spawn(process.execPath, [child, JSON.stringify(inputs)], {
    env: { ...process.env, GLB_RUN_ID: runId, ...(action ? { GITHUB_STATE: stateFile } : {}) },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let output = ''
  proc.stdout.on('data', d => (output += d))
  proc.stderr.on('data', d => (output += d))
  const exited = new Promise<number | null>(r => proc.on('exit', code => r(code)))
  const until = Date.now() + 180_000
  while (!output.includes('services ready') && Date.now() < until) await sleep(100)
  expect(output).toContain('services ready')
  await sleep(2000)
  return { proc, exited, runId, stateFile, output: () => output }
}

/**
 * An Actions state file's values (`name<<delimiter`, value, delimiter, as often as saved), the
 * last saved of each name winning, as the runner reads them.
 */
function stateValues(file: string): Record<string, string> {
  const saved = fs.readFileSync(file, 'utf8').matchAll(/^(.+?)<<(.+)\n([^]*?)\n\2$/gm)
  return Object.fromEntries([...saved].map(m => [m[1], m[3]]))
}

/**
 * Runs the post step with everything the main step saved, handed over as the runner does
 * (STATE_<name>); returns its stdout after checking that the run id was saved and it exited 0.
 */
export function runPostStep(post: string, suite: ChildSuite): string {
  const state = stateValues(suite.stateFile)
  expect(state[RUN_IDS.key]).toBe(suite.runId)
  const r = spawnSync(process.execPath, [post], {
    env: {
      ...process.env,
      ...Object.fromEntries(Object.entries(state).map(([k, v]) => [`STATE_${k}`, v]))
    },
    encoding: 'utf8'
  })
  expect(r.status).toBe(0)
  return r.stdout
}
