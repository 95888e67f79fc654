/**
 * The verdict as a check run: the conclusion read from a judgement (pure), its words, and the
 * action's port creating it against a local server speaking GitHub's REST endpoints: its name,
 * commit, conclusion and output; a token that may not; a re-run.
 */
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { actionPorts } from '../src/action/run-ports'
import { parseInputs, type RawInputs } from '../src/config/inputs'
import { ThresholdsSchema } from '../src/config/thresholds'
import { checkReading, CHECK_CONCLUSIONS, type CheckReading } from '../src/judge/check'
import type { ThresholdReport, ThresholdStatus } from '../src/judge/thresholds'
import { VERDICTS, type CaseVerdict, type Verdict } from '../src/judge/verdict'
import type { JudgedThresholds, RunVerdict } from '../src/pipeline'
import {
  checkLine,
  checkName,
  checkSummary,
  checkTitle,
  CHECK_SUMMARY_LIMIT
} from '../src/report/check-text'
import { markerLine } from '../src/report/comment-marker'
import { workflowContext } from '../src/result/context'
import { startFakeGitHub, type FakeGitHub } from './fixtures/report/github-server'
import { makeResult } from './fixtures/report/samples'
import { runs } from './helpers/samples'

const verdict = (v: Verdict, c = '1'): CaseVerdict => ({
  case: c,
  profile: 'minimal@5',
  metric: 'path',
  verdict: v
})
const [gate] = ThresholdsSchema.parse({ latency: ['p(99)<200ms'] })
const gates = (...statuses: ThresholdStatus[]): ThresholdReport => ({
  cases: statuses.length
    ? [
        {
          case: '1',
          profile: 'minimal@5',
          outcomes: statuses.map(status =>
            status === 'absent'
              ? { threshold: gate, figure: null, status, absent: 'no such figure' }
              : { threshold: gate, figure: 0.3, status }
          )
        }
      ]
    : [],
  broken: statuses.includes('fail')
})

describe('the conclusion read from a judgement', () => {
  // Every combination of two cases' answers, with and without a broken threshold.
  const pairs = VERDICTS.flatMap(a => VERDICTS.map(b => [a, b]))
  test.each(pairs)('cases %s and %s', (a, b) => {
    const verdicts = [verdict(a), verdict(b, '2')]
    const expected =
      a === 'regression' || b === 'regression'
        ? 'failure'
        : a === 'inconclusive' || b === 'inconclusive'
          ? 'neutral'
          : 'success'
    expect(checkReading(verdicts, null).conclusion).toBe(expected)
    expect(checkReading(verdicts, gates('pass', 'absent')).conclusion).toBe(expected)
    // A threshold broken on the head fails the check whatever the answers.
    expect(checkReading(verdicts, gates('pass', 'fail')).conclusion).toBe('failure')
  })

  test('counts what the title names; nothing compared and nothing broken is a success', () => {
    expect(
      checkReading(
        [verdict('regression'), verdict('inconclusive', '2'), verdict('no-change', '3')],
        gates('fail', 'fail', 'pass')
      )
    ).toEqual({ conclusion: 'failure', compared: 3, regressed: 1, inconclusive: 1, broken: 2 })
    expect(checkReading([], gates('pass'))).toEqual({
      conclusion: 'success',
      compared: 0,
      regressed: 0,
      inconclusive: 0,
      broken: 0
    })
  })
})

describe('the words of a check run', () => {
  const readings: CheckReading[] = [
    { conclusion: 'failure', compared: 2, regressed: 1, inconclusive: 0, broken: 0 },
    { conclusion: 'failure', compared: 2, regressed: 2, inconclusive: 0, broken: 3 },
    { conclusion: 'failure', compared: 0, regressed: 0, inconclusive: 0, broken: 1 },
    { conclusion: 'neutral', compared: 3, regressed: 0, inconclusive: 2, broken: 0 },
    { conclusion: 'success', compared: 1, regressed: 0, inconclusive: 0, broken: 0 },
    { conclusion: 'success', compared: 0, regressed: 0, inconclusive: 0, broken: 0 }
  ]

  test('a title per reading, the answer in one line', () => {
    expect(readings.map(checkTitle)).toEqual([
      'Latency regression in 1 case',
      'Latency regression in 2 cases; 3 thresholds broken',
      '1 threshold broken',
      'Cannot tell in 2 of 3 cases; no regression found',
      'No latency regression in 1 case',
      'No threshold broken'
    ])
  })

  test('the hidden line carries the conclusion and the title in what pr-comment-fork.yml takes', () => {
    const fork = fs.readFileSync(
      path.join(__dirname, '..', 'workflows', 'pr-comment-fork.yml'),
      'utf8'
    )
    const literal = /const checkOf = \/(.+)\/\n/.exec(fork)
    expect(literal).not.toBeNull()
    const checkOf = new RegExp(literal![1])
    for (const r of readings)
      expect(checkOf.exec(checkLine(r))?.slice(1)).toEqual([r.conclusion, checkTitle(r)])
    expect(CHECK_CONCLUSIONS).toEqual(['success', 'failure', 'neutral'])
    for (const line of [
      '<!-- check: cancelled; Latency regression in 1 case -->',
      '<!-- check: success; <img src=x> -->',
      '<!-- check: success; -->',
      `<!-- check: success; ${'x'.repeat(201)} -->`,
      '<!-- check: success; ok --> ',
      '<!-- check: SUCCESS; ok -->'
    ])
      expect(checkOf.test(line)).toBe(false)
  })

  test("the summary is cut under the Checks API's limit, with a note where the report is", () => {
    const long = 'a line of the report\n'.repeat(5000)
    expect(long.length).toBeGreaterThan(CHECK_SUMMARY_LIMIT)
    const cut = checkSummary(long, 'see the job summary.')
    expect(cut.length).toBeLessThanOrEqual(CHECK_SUMMARY_LIMIT)
    expect(cut).toMatch(/\*\*Report truncated\*\* .*see the job summary\.\n$/)
    expect(checkSummary('short\n', 'unused')).toBe('short\n')
  })

  test("the name is the comment key's, as its marker holds it: one per workflow, job and matrix", () => {
    expect(checkName('Latency / bench')).toBe('latency / Latency / bench')
    expect(checkName('Latency (PR) / bench / {\n  "case": "1"\n}')).toBe(
      'latency / Latency (PR) / bench / { "case": "1" }'
    )
    expect(checkName('a --> <b>')).toBe('latency / a --%3E %3Cb%3E')
  })
})

describe("the action's check run (local server speaking GitHub's REST endpoints)", () => {
  const HEAD = 'b'.repeat(40)
  /** GITHUB_SHA: a pull request's test merge, a push's commit. */
  const MERGE = 'c'.repeat(40)
  const NAME = 'latency / Latency (PR) / bench'
  const MARKDOWN = '### Latency: the report, with `<untrusted>` text escaped by report/\n'
  let gh: FakeGitHub
  let dir: string
  let log: string[]
  const saved = { ...process.env }
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'check-run-'))
  })
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))
  beforeEach(async () => {
    gh = await startFakeGitHub()
    for (const f of ['output', 'summary']) fs.writeFileSync(path.join(dir, f), '')
    log = []
    jest.spyOn(process.stdout, 'write').mockImplementation(chunk => {
      log.push(String(chunk))
      return true
    })
  })
  afterEach(async () => {
    jest.restoreAllMocks()
    process.env = { ...saved }
    process.exitCode = undefined // core.setFailed sets it; the test run must not inherit it
    await gh.close()
  })

  /** The action's ports on `event` (a pull request from `from`, or a push), judging as given. */
  async function judge(
    o: {
      verdicts?: CaseVerdict[] | null
      thresholds?: ThresholdReport
      from?: string
      inputs?: Partial<RawInputs>
    } = {}
  ) {
    const pr = o.from !== undefined
    const payload = pr
      ? {
          pull_request: {
            number: 7,
            title: 'a change',
            base: { ref: 'main', sha: 'a'.repeat(40) },
            head: { sha: HEAD, repo: { full_name: o.from } }
          }
        }
      : { head_commit: { message: 'a push' } }
    fs.writeFileSync(path.join(dir, 'event.json'), JSON.stringify(payload))
    Object.assign(process.env, {
      GITHUB_EVENT_PATH: path.join(dir, 'event.json'),
      GITHUB_EVENT_NAME: pr ? 'pull_request' : 'push',
      GITHUB_REPOSITORY: 'octo/bench',
      GITHUB_SHA: MERGE,
      GITHUB_API_URL: gh.baseUrl,
      GITHUB_SERVER_URL: 'https://github.example',
      GITHUB_RUN_ID: '42',
      GITHUB_WORKFLOW: 'Latency (PR)',
      GITHUB_JOB: 'bench',
      GITHUB_OUTPUT: path.join(dir, 'output'),
      GITHUB_STEP_SUMMARY: path.join(dir, 'summary')
    })
    const inputs = parseInputs({
      'github-token': 'test-token',
      'out-dir': path.join(dir, 'out'),
      ...o.inputs
    })
    const ports = await actionPorts(inputs, workflowContext(), null)
    const verdicts = o.verdicts === undefined ? [verdict('no-change')] : o.verdicts
    const run: RunVerdict | null = verdicts && {
      regression: verdicts.some(v => v.verdict === 'regression'),
      verdicts,
      markdown: MARKDOWN,
      base: null
    }
    const judged: JudgedThresholds = {
      head: o.thresholds ?? gates(),
      base: null,
      markdown: o.thresholds?.cases.length ? '#### Thresholds\n' : ''
    }
    const result = makeResult([{ id: '1', metrics: { roundtrip: runs(0.1) } }])
    await ports.judged(run, result, judged)
    return fs.readFileSync(path.join(dir, 'out', 'report.md'), 'utf8')
  }
  const warnings = () => log.filter(l => l.startsWith('::warning::'))

  test.each([
    ['a regression', [verdict('regression')], gates(), 'failure', 'Latency regression in 1 case'],
    [
      'no change',
      [verdict('no-change')],
      gates('pass'),
      'success',
      'No latency regression in 1 case'
    ],
    [
      'a case that cannot tell',
      [verdict('no-change'), verdict('inconclusive', '2')],
      gates(),
      'neutral',
      'Cannot tell in 1 of 2 cases; no regression found'
    ],
    ['a broken threshold', [verdict('no-change')], gates('fail'), 'failure', '1 threshold broken']
  ])(
    "a pull request with %s: on its head, not the test merge; the report's summary; the step not failed",
    async (_, verdicts, thresholds, conclusion, title) => {
      const report = await judge({ verdicts, thresholds, from: 'octo/bench' })
      expect(gh.checkRuns).toEqual([
        expect.objectContaining({
          name: NAME,
          head_sha: HEAD,
          status: 'completed',
          conclusion,
          output: { title, summary: MARKDOWN },
          details_url: 'https://github.example/octo/bench/actions/runs/42'
        })
      ])
      // The report (the comment's body) says the same to pr-comment-fork.yml on its second line.
      const reading = checkReading(verdicts, thresholds)
      expect(report).toBe(
        `${markerLine('Latency (PR) / bench', HEAD)}\n${checkLine(reading)}\n${MARKDOWN}`
      )
      expect(gh.comments.get(7)![0].body).toBe(report)
      expect(process.exitCode).toBeUndefined()
      expect(log.join('')).toContain(
        `check run '${NAME}' created on ${HEAD}: ${conclusion}, ${title}`
      )
    }
  )

  test('a re-run of the job updates its check run on the same head', async () => {
    await judge({ verdicts: [verdict('inconclusive')], from: 'octo/bench' })
    await judge({ verdicts: [verdict('regression')], from: 'octo/bench' })
    expect(gh.checkRuns).toHaveLength(1)
    expect(gh.checkRuns[0]).toMatchObject({ name: NAME, head_sha: HEAD, conclusion: 'failure' })
    expect(gh.log.filter(l => /^(POST|PATCH) .*check-runs/.test(l))).toEqual([
      'POST /repos/octo/bench/check-runs',
      `PATCH /repos/octo/bench/check-runs/${gh.checkRuns[0].id}`
    ])
  })

  test.each([
    ['auto', 'forker/bench'],
    ['auto', 'octo/bench'],
    ['true', 'forker/bench']
  ])(
    'check-run: %s, a token that may not write (pull request from %s): a warning, the job not failed',
    async (mode, from) => {
      gh.readOnly.add('octo/bench')
      const report = await judge({
        verdicts: [verdict('regression')],
        from,
        inputs: { 'check-run': mode }
      })
      expect(gh.checkRuns).toEqual([])
      expect(process.exitCode).toBeUndefined()
      expect(warnings().join('')).toContain(
        `the token may not create the check run '${NAME}' (403): give the workflow \`permissions: checks: write\``
      )
      // The report still carries the check for pr-comment-fork.yml.
      expect(report.split('\n')[1]).toBe('<!-- check: failure; Latency regression in 1 case -->')
    }
  )

  test('check-run: true on a branch of the repository whose token may not: the step fails', async () => {
    gh.readOnly.add('octo/bench')
    await judge({ from: 'octo/bench', inputs: { 'check-run': 'true' } })
    expect(process.exitCode).toBe(1)
    expect(log.join('')).toMatch(/::error::the token may not create the check run/)
  })

  test('check-run: false: no check run, and no check line for pr-comment-fork.yml', async () => {
    const report = await judge({ from: 'octo/bench', inputs: { 'check-run': 'false' } })
    expect(gh.checkRuns).toEqual([])
    expect(gh.log.filter(l => l.includes('check-runs'))).toEqual([])
    expect(report.split('\n')[1]).toBe(MARKDOWN.split('\n')[0])
  })

  test('a push: a check on the pushed commit where thresholds judged it, none where nothing did', async () => {
    await judge({ verdicts: null })
    expect(gh.checkRuns).toEqual([])
    await judge({ verdicts: null, thresholds: gates('pass', 'fail') })
    expect(gh.checkRuns).toEqual([
      expect.objectContaining({
        name: NAME,
        head_sha: MERGE,
        conclusion: 'failure',
        output: { title: '1 threshold broken', summary: '#### Thresholds\n' }
      })
    ])
  })
})
