/**
 * The provisioning cache end to end, as two jobs on fresh runners see it: the action's main and
 * post steps as a runner starts them, `@actions/cache` against a local server speaking the cache
 * service's REST protocol, real GNES on the local engine. The venv in the job's cache directory
 * is a link to the shared one, so the jobs move the link through the cache, not 145 MB.
 *
 * @side-by-side: what the cache saves and restores; no figure.
 */
import { spawn } from 'node:child_process'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { STATE_CACHE } from '../src/action/state'
import { ensureGnesVenv } from '../src/engine/local/venv'
import { entryKey } from '../src/engine/provisioning-cache'
import { startFakeCache, type FakeCache } from './fixtures/cache-server'
import { buildEntry } from './helpers/bundle'
import { tmp } from './helpers/tmp'
import { commandFileValues } from './helpers/workflow'

describe('the provisioning cache (main and post steps, a local cache service, the local engine)', () => {
  const root = tmp()
  const cacheDir = path.join(root, 'cache')
  const venvLink = path.join(cacheDir, 'gnes-0.0.47')
  let main: string
  let post: string
  let service: FakeCache

  beforeAll(async () => {
    ;[main, post] = await Promise.all([buildEntry('main'), buildEntry('post')])
    service = await startFakeCache()
    const venv = await ensureGnesVenv('0.0.47', () => undefined)
    fs.mkdirSync(cacheDir, { recursive: true })
    fs.symlinkSync(venv.dir, venvLink)
  })
  afterAll(() => service.close())

  /** A step's process, awaited: the cache service answers from this process meanwhile. */
  function step(
    file: string,
    env: NodeJS.ProcessEnv
  ): Promise<{ code: number | null; output: string }> {
    const child = spawn(process.execPath, [file], { env, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', d => (output += d))
    child.stderr.on('data', d => (output += d))
    return new Promise(resolve => child.on('close', code => resolve({ code, output })))
  }

  /** One job: the main step, then the post step with the state the main step saved. */
  async function job(
    name: string
  ): Promise<{ main: string; post: string; state: Record<string, string> }> {
    const dir = path.join(root, name)
    const workspace = path.join(dir, 'workspace')
    fs.mkdirSync(workspace, { recursive: true })
    const files = { state: path.join(dir, 'state'), output: path.join(dir, 'output') }
    for (const f of Object.values(files)) fs.writeFileSync(f, '')
    fs.writeFileSync(path.join(dir, 'event.json'), '{}')
    fs.writeFileSync(path.join(dir, 'summary'), '')
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      GNES_BENCH_CACHE: cacheDir,
      ACTIONS_CACHE_URL: service.url,
      ACTIONS_RUNTIME_TOKEN: 'runtime-token',
      GITHUB_ACTIONS: 'true',
      GITHUB_WORKSPACE: workspace,
      GITHUB_EVENT_NAME: 'workflow_dispatch',
      GITHUB_EVENT_PATH: path.join(dir, 'event.json'),
      GITHUB_REPOSITORY: 'octo/bench',
      GITHUB_SHA: 'a'.repeat(40),
      GITHUB_REF: 'refs/heads/main',
      GITHUB_OUTPUT: files.output,
      GITHUB_STATE: files.state,
      GITHUB_STEP_SUMMARY: path.join(dir, 'summary'),
      INPUT_CASES: '1',
      INPUT_PROFILES: 'minimal',
      INPUT_RUNS: '1',
      INPUT_REQUESTS: '3',
      'INPUT_WARMUP-REQUESTS': '1',
      'INPUT_DOC-BYTES': '1000',
      INPUT_ENGINE: 'local',
      INPUT_RECORD: 'false',
      'INPUT_OUT-DIR': path.join(dir, 'out')
    }
    const m = await step(main, env)
    expect(m.output).not.toContain('::error::')
    expect(m.code).toBe(0)
    const state = commandFileValues(fs.readFileSync(files.state, 'utf8'))
    const stateEnv = Object.fromEntries(Object.entries(state).map(([k, v]) => [`STATE_${k}`, v]))
    const p = await step(post, { ...env, ...stateEnv })
    expect(p.code).toBe(0)
    return { main: m.output, post: p.output, state }
  }

  it('a first job saves what it provisioned; a second on a fresh runner restores it and saves nothing again', async () => {
    const first = await job('first')
    const saved = JSON.parse(first.state[STATE_CACHE]) as { prefix: string; restored: null }
    expect(saved.restored).toBeNull()
    expect(saved.prefix).toMatch(
      /^gnes-latency-bench-2-linux-\w+-local-gnes-0\.0\.47-[0-9a-f]{16}$/
    )
    expect(first.main).toContain(`cache: nothing under ${saved.prefix} yet`)
    // The entry's key: the prefix and what it holds.
    const key = entryKey(saved.prefix, ['gnes-0.0.47'])
    expect([...service.entries.keys()]).toEqual([key])
    expect(first.post).toContain(`cache: saved ${venvLink} as ${key}`)

    // A fresh runner: nothing provisioned.
    fs.rmSync(cacheDir, { recursive: true })
    const second = await job('second')
    expect(second.main).toContain(`cache: restored ${key} (`)
    expect(fs.readlinkSync(venvLink)).toBeTruthy()
    expect(second.main).not.toContain('provisioning GNES')
    expect(JSON.parse(second.state[STATE_CACHE])).toMatchObject({ restored: key })
    expect(second.post).not.toContain('cache: saved')
    expect(service.entries.size).toBe(1)
  })
})
