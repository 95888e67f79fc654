/**
 * The action with `result-file`, as a runner starts it (INPUT_* and GITHUB_* variables, files for
 * outputs and job summary): it runs no suite and records the file in the history on a real bare
 * remote, in one commit; the combinations that contradict it, and a bad file, are refused before
 * anything is written. @shares-cores: it starts no service.
 */
import { spawn } from 'node:child_process'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { readBranchHistory } from '../src/history'
import type { Result } from '../src/result/schema'
import { startFakeGitHub, type FakeGitHub } from './fixtures/report/github-server'
import { git, initBare, treeHash } from './fixtures/history/git'
import { makeResult } from './fixtures/history/result'
import { buildEntry } from './helpers/bundle'
import { commandFileValues, pullRequestEvent } from './helpers/workflow'

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'action-record-'))
let main: string
let github: FakeGitHub
beforeAll(async () => {
  main = await buildEntry('main')
  github = await startFakeGitHub()
})
afterAll(async () => {
  await github.close()
  fs.rmSync(root, { recursive: true, force: true })
})

let n = 0
/** A fresh server directory holding octo/bench.git, as GITHUB_SERVER_URL serves it. */
function freshRemote(): { server: string; remote: string } {
  const server = path.join(root, `server${n++}`)
  return { server, remote: initBare(path.join(server, 'octo', 'bench.git')) }
}

function writeResultFile(result: Result | string): string {
  const file = path.join(root, `result-${n++}.json`)
  fs.writeFileSync(file, typeof result === 'string' ? result : JSON.stringify(result))
  return file
}

/**
 * The main step on `event`; no engine can start (no Docker, no GNES installed for the run).
 * Spawned without blocking: the fake GitHub answers from this process.
 */
async function runMain(
  server: string,
  event: string,
  payload: object,
  inputs: Record<string, string>
) {
  const dir = fs.mkdtempSync(path.join(root, 'run-'))
  const files = Object.fromEntries(
    ['event.json', 'output', 'state', 'summary'].map(f => [f, path.join(dir, f)])
  )
  fs.writeFileSync(files['event.json'], JSON.stringify(payload))
  for (const f of ['output', 'state', 'summary']) fs.writeFileSync(files[f], '')
  const out = path.join(dir, 'out')
  const child = spawn(process.execPath, [main], {
    env: {
      ...process.env,
      GITHUB_ACTIONS: 'true',
      GITHUB_EVENT_NAME: event,
      GITHUB_EVENT_PATH: files['event.json'],
      GITHUB_REPOSITORY: 'octo/bench',
      GITHUB_SERVER_URL: `file://${server}`,
      GITHUB_API_URL: github.baseUrl,
      GITHUB_SHA: 'f'.repeat(40),
      GITHUB_REF: event === 'push' ? 'refs/heads/main' : 'refs/pull/7/merge',
      GITHUB_OUTPUT: files.output,
      GITHUB_STATE: files.state,
      GITHUB_STEP_SUMMARY: files.summary,
      GNES_BENCH_CACHE: path.join(dir, 'gnes-cache'),
      DOCKER_HOST: 'unix:///nonexistent.sock',
      'INPUT_OUT-DIR': out,
      'INPUT_GITHUB-TOKEN': 'test-token',
      ...Object.fromEntries(Object.entries(inputs).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v]))
    },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let log = ''
  child.stdout.on('data', d => (log += d))
  child.stderr.on('data', d => (log += d))
  const status = await new Promise<number | null>(r => child.on('exit', r))
  return {
    status,
    log,
    outputs: commandFileValues(fs.readFileSync(files.output, 'utf8')),
    summary: fs.readFileSync(files.summary, 'utf8'),
    state: fs.readFileSync(files.state, 'utf8'),
    out
  }
}

const history = (remote: string) =>
  readBranchHistory({ repo: remote, branch: 'gh-pages', dir: 'benchmarks' })

test('on push: records the file on gh-pages in one commit, running no suite', async () => {
  const { server, remote } = freshRemote()
  const result = makeResult({ sha: '5'.repeat(40) })
  const file = writeResultFile(result)
  const r = await runMain(server, 'push', {}, { 'result-file': file })
  expect(r.log).not.toContain('::error::')
  expect(r.status).toBe(0)
  expect(r.outputs).toMatchObject({
    result: file,
    engine: 'local',
    verdict: 'none',
    regression: 'false',
    'change-points': '[]',
    // A recorded file is not judged: no threshold broke on it.
    'thresholds-broken': '0'
  })
  expect(r.summary).toContain('roundtrip')
  // Nothing ran: no engine for the post: step, no result of its own in out-dir.
  expect(r.state).toBe('')
  expect(fs.readdirSync(r.out)).toEqual(['report.md'])

  expect(git(remote, 'rev-list', '--count', 'gh-pages').trim()).toBe('1')
  const stored = await history(remote)
  expect(stored.map(e => e.resultId)).toEqual([result.id, result.id])
  // The entries say which commit was measured, not which workflow recorded them.
  for (const e of stored) expect(e.commit.sha).toBe('5'.repeat(40))
})

test('on a pull request: refused under record: auto, recorded with record: true', async () => {
  const { server, remote } = freshRemote()
  const file = writeResultFile(makeResult({ sha: '6'.repeat(40), event: 'pull_request' }))
  const payload = pullRequestEvent(7, 'try', 'a'.repeat(40), '6'.repeat(40))
  const before = treeHash(remote)
  const refused = await runMain(server, 'pull_request', payload, { 'result-file': file })
  expect(refused.status).toBe(1)
  expect(refused.log).toContain(
    `::error::Invalid input:%0A  input 'result-file' = '${file}': a result file is there to be recorded, and record: auto does not record a pull_request event`
  )
  expect(treeHash(remote)).toBe(before)
  expect(github.comments.get(7)).toBeUndefined()

  const recorded = await runMain(server, 'pull_request', payload, {
    'result-file': file,
    record: 'true'
  })
  expect(recorded.log).not.toContain('::error::')
  expect(recorded.status).toBe(0)
  expect((await history(remote)).map(e => e.commit.event)).toEqual(['pull_request', 'pull_request'])
  // Nothing was compared, so nothing is said on the pull request.
  expect(github.comments.get(7)).toBeUndefined()
})

describe('refused before anything is written', () => {
  test.each([
    [
      'paired mode',
      { baseline: 'paired', 'baseline-gnes-version': '0.0.46' },
      "input 'baseline' = 'paired': a paired run measures its base and head here, but result-file"
    ],
    ['record: false', { record: 'false' }, "input 'record' = 'false': result-file '"]
  ])('%s', async (_name, inputs, message) => {
    const { server, remote } = freshRemote()
    const before = treeHash(remote)
    const file = writeResultFile(makeResult())
    const r = await runMain(server, 'push', {}, { 'result-file': file, ...inputs })
    expect(r.status).toBe(1)
    expect(r.log).toContain(message)
    expect(treeHash(remote)).toBe(before)
    expect(fs.existsSync(r.out)).toBe(false)
  })

  test.each([
    ['not JSON', '{"schema": ', /result-file .*: cannot read a JSON result/],
    [
      'not a result',
      JSON.stringify({ schema: 'gnes-latency-bench/result@2', cases: [] }),
      /result-file .*: not a suite result: at id: Required/
    ]
  ])('a result file that is %s', async (_name, text, message) => {
    const { server, remote } = freshRemote()
    const before = treeHash(remote)
    const r = await runMain(server, 'push', {}, { 'result-file': writeResultFile(text) })
    expect(r.status).toBe(1)
    expect(r.log).toMatch(message)
    expect(treeHash(remote)).toBe(before)
    expect(fs.existsSync(r.out)).toBe(false)
  })
})
