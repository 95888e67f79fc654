import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { STATE_RUN_ID } from '../../src/action/state'
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
import { runIdKeeper } from '${root}/src/action/state'
import { parseInputs } from '${root}/src/config/inputs'
import { runSuite } from '${root}/src/pipeline/suite/run-suite'
// As the action's main step keeps the run id for its post step; as the CLI, a reaper removes it.
const keepRunId = process.env.GITHUB_STATE ? runIdKeeper() : undefined
const options = { suiteId: process.env.GLB_RUN_ID, keepRunId }
runSuite(parseInputs(JSON.parse(process.argv[2])), options).then(
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

/** Reads one value from an Actions state file (`name<<delimiter`, value, delimiter). */
function stateValue(file: string, name: string): string | undefined {
  const m = new RegExp(`^${name}<<(.+)\\n([^]*?)\\n\\1$`, 'm').exec(fs.readFileSync(file, 'utf8'))
  return m?.[2]
}

/**
 * Runs the post step with the run id the main step saved, handed over as the runner does
 * (STATE_<name>); returns its stdout after checking that the id was saved and it exited 0.
 */
export function runPostStep(post: string, suite: ChildSuite): string {
  const runId = stateValue(suite.stateFile, STATE_RUN_ID)
  expect(runId).toBe(suite.runId)
  const r = spawnSync(process.execPath, [post], {
    env: { ...process.env, [`STATE_${STATE_RUN_ID}`]: runId },
    encoding: 'utf8'
  })
  expect(r.status).toBe(0)
  return r.stdout
}
