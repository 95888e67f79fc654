/**
 * What a recording push says about the steps it made detectable: the text (job summary, commit
 * comment, alert issue), the outputs, and the alerts posted to a local server speaking GitHub's
 * REST endpoints (a commit comment; one issue per branch that later alerts comment on).
 */
import * as fs from 'node:fs'
import * as path from 'node:path'
import { synthetic } from '../bench/synthetic-series'
import { announceSteps } from '../src/action/alert'
import { actionTargets } from '../src/action/targets'
import { parseInputs } from '../src/config/inputs'
import type { HistoryEntry } from '../src/history/schema'
import { postAlert } from '../src/action/alert-post'
import { alertSteps, stepOutputs } from '../src/judge/alert'
import { alertMarker, stepsMarkdown, stepsText } from '../src/report/step-alert'
import { workflowContext } from '../src/result/context'
import { seriesSteps, type TrendStep } from '../src/trend/series'
import { startFakeGitHub, type FakeGitHub } from './fixtures/report/github-server'
import { benchEntry, pacedEntry } from './fixtures/render/entries'
import { tmp } from './helpers/tmp'

const EVIL = '](javascript:alert(1)) <img src=x onerror=alert(2)> @everyone\n# heading'

/** One burst series of case 1 whose roundtrip steps up by `size` at entry 30 of 40. */
function stepOf(size: number, over: Partial<HistoryEntry['commit']> = {}): TrendStep {
  const values = synthetic({ length: 40, cv: 0.01, steps: [{ at: 30, size }] }, 3)
  const entries = values.map((v, i) =>
    benchEntry(i, '1', {
      best: { ...benchEntry(i).best, roundtrip: v / 1000 },
      commit: { ...benchEntry(i).commit, ...over }
    })
  )
  const [step] = seriesSteps(entries, 'roundtrip')
  expect(step.index).toBe(30)
  return step
}

const LINKS = {
  dashboardUrl: 'https://acme.github.io/gnes-bench/benchmarks/',
  repositoryUrl: 'https://github.com/acme/gnes-bench',
  cc: ['octocat']
}

test('the text names each step, its size with interval and its commits; history text stays text', () => {
  const slower = stepOf(0.2)
  const faster = stepOf(-0.2, { sha: EVIL })
  const md = stepsMarkdown(alertSteps([slower, faster], 0.1), LINKS)
  const rows = md.split('\n').filter(l => l.startsWith('| 1 '))
  expect(rows[0]).toMatch(/🔴 regression \+\d+\.\d % \[\+\d+\.\d %, \+\d+\.\d %\]/)
  expect(rows[0]).toContain(
    `[${benchEntry(29).commit.sha!.slice(0, 7)}](https://github.com/acme/gnes-bench/commit/`
  )
  expect(rows[1]).toContain('🟢 faster −')
  // A hostile sha is escaped text: no link target, no HTML, no mention, no heading.
  expect(md).not.toContain('](javascript')
  expect(md).not.toContain('<img')
  expect(md).not.toMatch(/^# heading/m)
  // Visible text mentions no one (a link target is no mention, and is percent-encoded).
  expect(md.replace(/\]\([^)\s]*\)/g, ']')).not.toMatch(/@everyone/)
  expect(md).toContain('cc @octocat')
  expect(md).toContain('[charts](https://acme.github.io/gnes-bench/benchmarks/)')
  // It says what a step of separate jobs cannot tell, and what can.
  expect(md).toContain('a runner can run a few percent slower for a while with nothing changed')
  expect(md).toContain('`bisect`')
  expect(stepsMarkdown(alertSteps([], 0.1), LINKS)).toBe('')
  // A step below the threshold is shown, never alerted.
  expect(stepsMarkdown(alertSteps([stepOf(0.05)], 0.1), LINKS)).toContain('🟠 slower +')
  expect(stepOutputs(alertSteps([slower, stepOf(0.05), faster], 0.1)).map(o => o.alert)).toEqual([
    true,
    false,
    false
  ])
  // A hop's step, however large, is shown and never alerted: the verdict metric decides.
  const hop = { ...slower, metric: 'r2:proc' }
  expect(stepOutputs(alertSteps([hop], 0.1))[0]).toMatchObject({ metric: 'r2:proc', alert: false })
  expect(stepsMarkdown(alertSteps([hop], 0.1), LINKS)).toContain('`r2:proc` | 🟠 slower +')
  const text = stepsText(alertSteps([faster], 0.1))
  // One line per step: the sha's newline cannot start a line of its own.
  expect(text.split('\n')).toHaveLength(2)
  expect(text).not.toContain(String.fromCharCode(27))
})

test('a GNES case at minimal load alerts on path, the metric its pull requests are judged by', () => {
  // 40 entries; `path` steps +10 % at entry 30 while `c->f:send` (the client's transfer) falls
  // so that `latency` steps too: the `path` step alerts, the latency step is shown only.
  const values = synthetic({ length: 40, cv: 0.01, steps: [{ at: 30, size: 0.1 }] }, 5)
  const entries = values.map((v, i) => {
    const e = pacedEntry(i)
    const path = v / 100
    const send = i >= 30 ? 0.5 : 0.2
    return { ...e, best: { ...e.best, path, 'c->f:send': send, latency: path + send } }
  })
  const steps = ['latency', 'path'].map(m => seriesSteps(entries, m)[0])
  expect(steps.map(s => [s.metric, s.index])).toEqual([
    ['latency', 30],
    ['path', 30]
  ])
  expect(stepOutputs(alertSteps(steps, 0.025)).map(o => [o.metric, o.alert])).toEqual([
    ['latency', false],
    ['path', true]
  ])
})

describe('alerts posted', () => {
  let github: FakeGitHub
  beforeAll(async () => {
    github = await startFakeGitHub()
  })
  afterAll(() => github.close())
  const target = () => ({
    token: 'test-token',
    owner: 'acme',
    repo: 'gnes-bench',
    baseUrl: github.baseUrl,
    branch: 'main',
    title: 'Latency regression on main: case 1 +20.0 %'
  })

  test('on the commit, or in one issue per branch that later alerts comment on', async () => {
    expect(await postAlert({ ...target(), kind: 'commit', sha: 'abc123', body: 'one' })).toBe(
      'commented'
    )
    expect(github.commitComments.get('abc123')!.map(c => c.body)).toEqual(['one'])
    expect(await postAlert({ ...target(), kind: 'issue', sha: null, body: 'first' })).toBe('opened')
    expect(await postAlert({ ...target(), kind: 'issue', sha: null, body: 'second' })).toBe(
      'commented'
    )
    // Another branch's alerts get an issue of their own.
    expect(
      await postAlert({ ...target(), branch: 'release/1', kind: 'issue', sha: null, body: 'x' })
    ).toBe('opened')
    const [main, release] = github.issues
    expect(main.body).toBe(`${alertMarker('main')}\nfirst`)
    expect(github.comments.get(main.number)!.map(c => c.body)).toEqual(['second'])
    expect(release.body.startsWith(alertMarker('release/1'))).toBe(true)
    github.readOnly.add('acme/gnes-bench')
    expect(await postAlert({ ...target(), kind: 'commit', sha: 'abc123', body: 'x' })).toBe(
      'forbidden'
    )
    github.readOnly.clear()
  })

  test('a push: the outputs, the job summary, the issue; a step below the threshold only shown', async () => {
    const dir = tmp()
    const files = { output: path.join(dir, 'out'), summary: path.join(dir, 'summary') }
    for (const f of Object.values(files)) fs.writeFileSync(f, '')
    const env = {
      GITHUB_OUTPUT: files.output,
      GITHUB_STEP_SUMMARY: files.summary,
      GITHUB_REPOSITORY: 'acme/gnes-bench',
      GITHUB_API_URL: github.baseUrl,
      GITHUB_SHA: 'f'.repeat(40),
      GITHUB_REF: 'refs/heads/main',
      GITHUB_EVENT_NAME: 'push'
    }
    const saved = { ...process.env }
    Object.assign(process.env, env)
    try {
      const inputs = parseInputs({
        'github-token': 'test-token',
        'alert-comment': 'issue',
        'alert-cc': 'octocat'
      })
      const ctx = workflowContext()
      const issuesBefore = github.issues.length
      await announceSteps(
        alertSteps([stepOf(0.2), stepOf(0.05)], inputs['alert-threshold']),
        inputs,
        await actionTargets(inputs, ctx),
        ctx
      )
      const out = fs.readFileSync(files.output, 'utf8')
      const points = JSON.parse(/change-points<<(\S+)\n([\s\S]*?)\n\1/.exec(out)![2])
      expect(points.map((p: { alert: boolean }) => p.alert)).toEqual([true, false])
      expect(out).toMatch(/regression<<(\S+)\ntrue\n\1/)
      expect(fs.readFileSync(files.summary, 'utf8')).toContain('### Latency change points')
      expect(github.issues).toHaveLength(issuesBefore)
      // The branch already has its alert issue (opened above): this alert comments on it.
      const main = github.issues.find(i => i.body.startsWith(alertMarker('main')))!
      expect(github.comments.get(main.number)!.at(-1)!.body).toContain('cc @octocat')

      // Only a small step: shown and listed, no regression, nothing posted.
      fs.writeFileSync(files.output, '')
      const targets = await actionTargets(inputs, ctx)
      const posted = github.log.length
      await announceSteps(
        alertSteps([stepOf(0.05)], inputs['alert-threshold']),
        inputs,
        targets,
        ctx
      )
      expect(fs.readFileSync(files.output, 'utf8')).not.toContain('regression<<')
      expect(github.log.length).toBe(posted)
    } finally {
      process.env = saved
    }
  })
})
