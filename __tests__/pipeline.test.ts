import { randomUUID } from 'node:crypto'
/**
 * The pipeline API both front ends call, called directly: the workflow context read once, the
 * action's targets derived once, a result written, read back, recorded in a plain history
 * directory with its report, and compared with the history.
 */
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { actionTargets } from '../src/action/targets'
import { flagLocation } from '../src/commands/history-flags'
import { parseInput } from '../src/config/input'
import { parseInputs } from '../src/config/inputs'
import { readHistory } from '../src/history'
import {
  compareWithHistory,
  describeLocation,
  readResult,
  recordResult,
  writeResult
} from '../src/pipeline'
import { workflowContext } from '../src/result/context'
import { resolveCases } from '../src/topology/cases'
import { synthetic } from '../bench/synthetic-series'
import { startFakeGitHub, type FakeGitHub } from './fixtures/report/github-server'
import { makeEntry, makeResult } from './fixtures/report/samples'
import { runs } from './helpers/samples'
import { pullRequestEvent } from './helpers/workflow'

let tmp: string
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-'))
})
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }))

function eventEnv(payload: object, env: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const file = path.join(tmp, 'event.json')
  fs.writeFileSync(file, JSON.stringify(payload))
  return { GITHUB_EVENT_PATH: file, ...env }
}

const prPayload = pullRequestEvent(7, 'Faster router', 'a'.repeat(40), 'b'.repeat(40))

describe('the workflow context', () => {
  test('a pull request: the head commit, its title and the base, from one read of the payload', () => {
    const ctx = workflowContext(
      eventEnv(prPayload, {
        GITHUB_SHA: 'c'.repeat(40),
        GITHUB_EVENT_NAME: 'pull_request',
        GITHUB_REPOSITORY: 'octo/bench'
      })
    )
    expect(ctx.git.sha).toBe('b'.repeat(40))
    expect(ctx.git.message).toBe('Faster router')
    expect(ctx.git.serverUrl).toBeNull()
    expect(ctx.pullRequest).toEqual({
      number: 7,
      headSha: ctx.git.sha,
      baseRef: 'main',
      baseSha: 'a'.repeat(40),
      fork: false
    })
  })

  test('a pull request from a fork says so: its token may not write to this repository', () => {
    const from = (repo: string) => {
      const payload = structuredClone(prPayload) as typeof prPayload & {
        pull_request: { head: { repo?: { full_name: string } } }
      }
      payload.pull_request.head.repo = { full_name: repo }
      return workflowContext(eventEnv(payload, { GITHUB_REPOSITORY: 'octo/bench' })).pullRequest
    }
    expect(from('forker/bench')?.fork).toBe(true)
    expect(from('octo/bench')?.fork).toBe(false)
  })

  test('outside Actions everything is null', () => {
    const ctx = workflowContext({})
    expect(Object.values(ctx.git).every(v => v === null)).toBe(true)
    expect(ctx.pullRequest).toBeNull()
    expect(ctx.apiUrl).toBeNull()
  })

  test('a payload of another shape is refused, naming the file', () => {
    const env = eventEnv({ pull_request: { number: 'seven' } })
    expect(() => workflowContext(env)).toThrow(`event payload ${env.GITHUB_EVENT_PATH}: at`)
  })
})

describe('the action targets', () => {
  let github: FakeGitHub
  beforeAll(async () => {
    github = await startFakeGitHub()
  })
  afterAll(() => github.close())
  const inputs = (raw: Record<string, string> = {}) =>
    parseInputs({
      'github-token': 'test-token',
      'out-dir': 'out',
      'history-dir': '/bench/',
      ...raw
    })
  const enterprise = () =>
    workflowContext(
      eventEnv(prPayload, {
        GITHUB_REPOSITORY: 'octo/bench',
        GITHUB_SERVER_URL: 'https://ghe.example',
        GITHUB_API_URL: github.baseUrl
      })
    )

  test('history, links, report and comment target are derived once from inputs and workflow', async () => {
    github.pages.set('octo/bench', 'https://pages.ghe.example/octo/bench/')
    const targets = await actionTargets(inputs(), enterprise())
    expect(targets.history).toEqual({
      kind: 'branch',
      repo: 'https://ghe.example/octo/bench.git',
      branch: 'gh-pages',
      dir: '/bench/',
      token: 'test-token'
    })
    expect(targets.repositoryUrl).toBe('https://ghe.example/octo/bench')
    // Enterprise Server: the Pages API says where the site is.
    expect(targets.dashboardUrl).toBe('https://pages.ghe.example/octo/bench/bench/')
    expect(targets.reportPath).toBe(path.join('out', 'report.md'))
    expect(targets.comment).toEqual({
      token: 'test-token',
      owner: 'octo',
      repo: 'bench',
      baseUrl: github.baseUrl
    })
  })

  test('the dashboard address: the input, else the Pages API, else GitHub.com’s, else none', async () => {
    github.pages.set('octo/custom', 'https://bench.example.org/')
    const at = async (raw: Record<string, string>, ctx = enterprise()) =>
      (await actionTargets(inputs(raw), ctx)).dashboardUrl
    expect(await at({ 'dashboard-url': 'https://bench.example.org/b/' })).toBe(
      'https://bench.example.org/b/'
    )
    expect(await at({ 'history-repository': 'octo/custom' })).toBe(
      'https://bench.example.org/bench/'
    )
    // No site the token can read on Enterprise Server: no link rather than a wrong one.
    expect(await at({ 'history-repository': 'octo/nosite' })).toBeNull()
    const dotCom = workflowContext({
      GITHUB_REPOSITORY: 'octo/bench',
      GITHUB_API_URL: github.baseUrl
    })
    expect(await at({ 'history-repository': 'octo/nosite' }, dotCom)).toBe(
      'https://octo.github.io/nosite/bench/'
    )
    expect(await at({ 'history-repository': 'Octo/octo.github.io' }, dotCom)).toBe(
      'https://octo.github.io/bench/'
    )
    expect(() => inputs({ 'dashboard-url': 'javascript:alert(1)' })).toThrow(
      'dashboard-url must be an http(s) address'
    )
  })

  test('history-repository moves the history, not the comment; no token, no comment', async () => {
    const ctx = workflowContext({ GITHUB_REPOSITORY: 'octo/bench' })
    const targets = await actionTargets(
      parseInputs({ 'history-repository': 'octo/results', 'history-dir': 'b' }),
      ctx
    )
    expect(targets.history.repo).toBe('https://github.com/octo/results.git')
    expect(targets.dashboardUrl).toBe('https://octo.github.io/results/b/')
    expect(targets.repositoryUrl).toBe('https://github.com/octo/bench')
    expect(targets.comment).toBeNull()
  })

  test('no repository at all is an error naming the input', async () => {
    await expect(actionTargets(inputs(), workflowContext({}))).rejects.toThrow('history-repository')
  })
})

describe('the CLI history flags', () => {
  test('a plain directory, its default, or a branch of a repository', () => {
    expect(flagLocation({}, 'out/history')).toEqual({ kind: 'dir', dir: 'out/history' })
    expect(flagLocation({ 'history-dir': 'h' }, 'out/history')).toEqual({ kind: 'dir', dir: 'h' })
    expect(flagLocation({ 'history-repository': '/srv/r.git' }, 'out/history')).toEqual({
      kind: 'branch',
      repo: '/srv/r.git',
      branch: 'gh-pages',
      dir: 'benchmarks'
    })
    expect(() => flagLocation({})).toThrow('--history-dir DIR')
  })

  test('one input is validated by the rule of the whole set', () => {
    expect(parseInput('alert-threshold', '5%')).toBeCloseTo(0.05, 12)
    expect(parseInput('alert-threshold', null)).toBe('auto')
    expect(() => parseInput('max-entries', '0')).toThrow(
      "input 'max-entries' = '0': max-entries must be at least 1"
    )
  })
})

describe('result, record, compare', () => {
  const result = makeResult([{ id: '1', metrics: { roundtrip: runs(0.13) } }], {
    event: 'push',
    ref: 'refs/heads/main'
  })

  test('a written result reads back equal; a second write keeps the first copy', () => {
    const out = path.join(tmp, 'out')
    const latest = writeResult(result, out)
    expect(readResult(latest)).toEqual(result)
    expect(() => writeResult(result, out)).toThrow(/EEXIST/)
    fs.writeFileSync(path.join(tmp, 'bad.json'), '{"schema": 1}')
    expect(() => readResult(path.join(tmp, 'bad.json'), '--result')).toThrow(
      /^--result .*bad\.json: not a suite result: at /
    )
  })

  test('recording adds the entries and renders the report in the same directory', async () => {
    const dir = path.join(tmp, 'history')
    const inputs = parseInputs({ cases: '1' })
    const cases = resolveCases(inputs)
    const out = await recordResult(
      result,
      { kind: 'dir', dir },
      { inputs, cases, repositoryUrl: 'https://x.test/o/r' }
    )
    expect(out.added).toHaveLength(1)
    expect(readHistory(dir).map(e => e.caseId)).toEqual(['1'])
    expect(fs.readFileSync(path.join(dir, 'README.md'), 'utf8')).toContain('roundtrip')
    expect(describeLocation({ kind: 'dir', dir })).toBe(path.resolve(dir))
    // The same result again adds nothing.
    expect(
      (await recordResult(result, { kind: 'dir', dir }, { inputs, cases })).added
    ).toHaveLength(0)
  })

  test('recording push by push announces a step once, by the push that first shows it', async () => {
    const dir = path.join(tmp, 'history')
    const inputs = parseInputs({ cases: '1' })
    const cases = resolveCases(inputs)
    // Roundtrip 130 ms ± 1 %, 5 % higher from the 20th push on.
    const values = synthetic({ length: 30, cv: 0.01, steps: [{ at: 19, size: 0.05 }] }, 31)
    const announced: { push: number; at: string | null; change: number }[] = []
    for (const [i, v] of values.entries()) {
      const sha = `${String(i).padStart(4, '0')}${'a'.repeat(36)}`
      const pushed = makeResult([{ id: '1', metrics: { roundtrip: runs(v / 1000) } }], {
        event: 'push',
        ref: 'refs/heads/main',
        sha
      })
      const at = new Date(Date.UTC(2026, 10, 1, i)).toISOString()
      const result = {
        ...pushed,
        id: randomUUID(),
        cases: pushed.cases.map(c => ({ ...c, runs: c.runs.map(r => ({ ...r, startedAt: at })) }))
      }
      const out = await recordResult(result, { kind: 'dir', dir }, { inputs, cases })
      for (const s of out.alerts.steps)
        announced.push({ push: i + 1, at: s.firstAfter.commit.sha, change: s.change })
    }
    expect(announced).toHaveLength(1)
    expect(announced[0].push).toBeGreaterThanOrEqual(20)
    expect(announced[0].at).toBe(`0019${'a'.repeat(36)}`)
    expect(announced[0].change).toBeGreaterThan(0.03)
  })

  test('a result lacking a case that was asked for is refused and records nothing', async () => {
    const dir = path.join(tmp, 'history')
    const inputs = parseInputs({ cases: '1,2' })
    await expect(
      recordResult(result, { kind: 'dir', dir }, { inputs, cases: resolveCases(inputs) })
    ).rejects.toThrow('lacks case(s) 2: nothing recorded')
    expect(fs.existsSync(dir)).toBe(false)
  })

  test('the comparison and its Markdown come from one call', () => {
    const { comparison, markdown } = compareWithHistory(
      result,
      [makeEntry({ id: '1', metrics: { roundtrip: runs(0.1) } })],
      { threshold: 0.1, baseRef: 'main', mergeBaseSha: null },
      { dashboardUrl: 'https://o.github.io/r/benchmarks/' }
    )
    expect(comparison.regression).toBe(true)
    expect(markdown).toContain('https://o.github.io/r/benchmarks/')
  })
})
