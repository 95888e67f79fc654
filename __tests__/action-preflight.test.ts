/**
 * The action's main and post steps as a runner starts them (INPUT_*, GITHUB_* and STATE_*
 * variables, files for outputs and state): bad input fails before anything is installed, started
 * or written, and the post step says nothing about Docker after a local-engine run.
 * @shares-cores: it starts no service.
 */
import { spawnSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { buildEntry } from './helpers/bundle'

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'action-preflight-'))
let main: string
let post: string
beforeAll(async () => {
  main = await buildEntry('main')
  post = await buildEntry('post')
})
afterAll(() => fs.rmSync(root, { recursive: true, force: true }))

let n = 0
function runMain(inputs: Record<string, string>) {
  const dir = fs.mkdtempSync(path.join(root, `main${n++}-`))
  const files = Object.fromEntries(
    ['event.json', 'output', 'state'].map(f => [f, path.join(dir, f)])
  )
  fs.writeFileSync(files['event.json'], '{}')
  for (const f of ['output', 'state']) fs.writeFileSync(files[f], '')
  const cache = path.join(dir, 'gnes-cache')
  const out = path.join(dir, 'out')
  const r = spawnSync(process.execPath, [main], {
    env: {
      ...process.env,
      GITHUB_ACTIONS: 'true',
      GITHUB_EVENT_NAME: 'push',
      GITHUB_EVENT_PATH: files['event.json'],
      GITHUB_REPOSITORY: 'octo/bench',
      // No repository is served there: the history cannot be reached.
      GITHUB_SERVER_URL: `file://${path.join(dir, 'server')}`,
      GITHUB_OUTPUT: files.output,
      GITHUB_STATE: files.state,
      GNES_BENCH_CACHE: cache,
      DOCKER_HOST: 'unix:///nonexistent.sock',
      INPUT_ENGINE: 'local',
      'INPUT_OUT-DIR': out,
      ...Object.fromEntries(Object.entries(inputs).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v]))
    },
    encoding: 'utf8',
    timeout: 60_000
  })
  return {
    status: r.status,
    log: r.stdout + r.stderr,
    state: fs.readFileSync(files.state, 'utf8'),
    wrote: [cache, out].filter(p => fs.existsSync(p))
  }
}

describe('the main step checks every input before anything starts', () => {
  test('batch-size larger than docs', () => {
    const r = runMain({ docs: '5', 'batch-size': '10' })
    expect(r.status).toBe(1)
    expect(r.log).toContain(
      "::error::Invalid input:%0A  input 'batch-size' = '10': batch-size must not exceed docs (5)"
    )
    expect(r.state).toBe('')
    expect(r.wrote).toEqual([])
  })

  test('a paired run whose pair is incomplete', () => {
    const r = runMain({ baseline: 'paired', 'baseline-image': 'gnes:base' })
    expect(r.status).toBe(1)
    expect(r.log).toContain(
      "::error::Invalid input:%0A  input 'baseline-image' = 'gnes:base': baseline-image pairs with image: set image to the head's image"
    )
    expect(r.log).not.toContain('engine:')
    expect(r.state).toBe('')
    expect(r.wrote).toEqual([])
  })

  test('an unreachable history repository, before the suite runs', () => {
    const r = runMain({})
    expect(r.status).toBe(1)
    expect(r.log).toMatch(
      /::error::Invalid input:%0A {2}input 'history-repository' = 'file:\/\/.*\/server\/octo\/bench\.git': cannot reach the history's repository/
    )
    expect(r.log).not.toContain('engine:')
    expect(r.state).toBe('')
    expect(r.wrote).toEqual([])
  })

  test('control characters in an input reach the log as visible escapes', () => {
    const r = runMain({ engine: 'local\u001b[2J' })
    expect(r.status).toBe(1)
    expect(r.log).toContain("input 'engine' = 'local\\x1b[2J'")
    // eslint-disable-next-line no-control-regex
    expect(r.log).not.toMatch(/\u001b/)
  })
})

describe('the post step', () => {
  const runPost = (state: Record<string, string>) =>
    spawnSync(process.execPath, [post], {
      env: {
        ...process.env,
        DOCKER_HOST: 'unix:///nonexistent.sock',
        ...Object.fromEntries(Object.entries(state).map(([k, v]) => [`STATE_${k}`, v]))
      },
      encoding: 'utf8',
      timeout: 30_000
    })

  test('after a local-engine run it says nothing about Docker', () => {
    const r = runPost({ engine: 'local' })
    expect(r.status).toBe(0)
    expect(r.stdout).toBe('the local engine left no process running; nothing to clean up\n')
    expect(r.stdout + r.stderr).not.toMatch(/docker/i)
  })

  test('after a main step that stopped before Docker created anything, it is silent', () => {
    const r = runPost({ engine: 'docker' })
    expect(r.status).toBe(0)
    expect(r.stdout + r.stderr).toBe('')
    expect(runPost({}).stdout).toBe('')
  })

  test('after a Docker run whose daemon is gone, it warns', () => {
    const r = runPost({ engine: 'docker', 'docker-run-id': 'run-1' })
    expect(r.status).toBe(0)
    expect(r.stdout).toContain('::warning::no Docker daemon answers; cannot clean up run run-1')
    // A paired run's base and head engines each saved their run id.
    const paired = runPost({ engine: 'docker', 'docker-run-id': 'run-1,run-2' })
    expect(paired.stdout).toContain('cannot clean up run run-1, run-2')
  })
})
