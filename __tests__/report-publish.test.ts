import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { compareResult } from '../src/judge/compare'
import { COMMENT_LIMIT } from '../src/report/cap'
import { renderComparisonMarkdown } from '../src/report/markdown'
import { commentMarker, markerLine } from '../src/report/comment-marker'
import { publishPullRequestReport } from '../src/action/publish'
import { startFakeGitHub, type FakeGitHub } from './fixtures/report/github-server'
import { makeEntry, makeResult } from './fixtures/report/samples'
import { PLUS_MINUS, re } from './helpers/figures'
import { runs } from './helpers/samples'

const regressed = compareResult(
  makeResult([{ id: '1', metrics: { roundtrip: runs(0.13) } }]),
  [makeEntry({ id: '1', metrics: { roundtrip: runs(0.1) } })],
  { threshold: 0.1, baseRef: 'main', mergeBaseSha: null }
)
const markdown = renderComparisonMarkdown(regressed)
const KEY = 'Latency (PR) / bench'
/** What the file, the summary and the comment hold: the marker line, then the report. */
const marked = (md: string, head: string | null = null) => `${markerLine(KEY, head)}\n${md}`
const HEAD = 'e'.repeat(40)

let gh: FakeGitHub
let dir: string
let stdout: string[]
const saved = { ...process.env }
// One directory for the file: @actions/core caches the job summary's path on first use.
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'report-publish-'))
})
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))
beforeEach(async () => {
  gh = await startFakeGitHub()
  for (const f of ['output', 'summary']) fs.writeFileSync(path.join(dir, f), '')
  process.env.GITHUB_OUTPUT = path.join(dir, 'output')
  process.env.GITHUB_STEP_SUMMARY = path.join(dir, 'summary')
  stdout = []
  jest.spyOn(process.stdout, 'write').mockImplementation(chunk => {
    stdout.push(String(chunk))
    return true
  })
})
afterEach(async () => {
  jest.restoreAllMocks()
  process.env = { ...saved }
  process.exitCode = undefined // core.setFailed sets it; the test run must not inherit it
  await gh.close()
})

const comment = (repo: string) => ({
  token: 'test-token',
  owner: 'acme',
  repo,
  issueNumber: 7,
  baseUrl: gh.baseUrl
})

describe('publishPullRequestReport (local server speaking GitHub REST endpoints)', () => {
  test('writes the report, sets outputs, comments, and fails on regression when asked', async () => {
    const reportPath = path.join(dir, 'out', 'regression.md')
    const outcome = await publishPullRequestReport({
      comparison: regressed,
      markdown,
      commentKey: KEY,
      reportPath,
      failOnRegression: true,
      onInconclusive: 'warn',
      head: HEAD,
      comment: comment('search')
    })
    expect(outcome).toEqual({ comment: 'created', failed: true })
    expect(fs.readFileSync(reportPath, 'utf8')).toBe(marked(markdown, HEAD))
    const outputs = fs.readFileSync(process.env.GITHUB_OUTPUT!, 'utf8')
    expect(outputs).toMatch(/regression<<.*\ntrue\n/)
    expect(outputs).toContain(reportPath)
    expect(gh.comments.get(7)![0].body).toBe(marked(markdown, HEAD))
    expect(process.exitCode).toBe(1)
  })

  test('two runs of one pull request, the older finishing last: the comment keeps the newer head’s verdict', async () => {
    const [older, newer] = ['1'.repeat(40), '2'.repeat(40)]
    gh.pulls.push({ number: 7, head: { sha: newer, ref: 'feature', label: 'acme:feature' } })
    const verdictOf = (head: string, text: string) =>
      publishPullRequestReport({
        comparison: regressed,
        markdown: `### ${text}\n`,
        commentKey: KEY,
        reportPath: path.join(dir, `${head}.md`),
        failOnRegression: false,
        onInconclusive: 'warn',
        head,
        comment: comment('search')
      })
    expect(await verdictOf(newer, 'the newer head')).toMatchObject({ comment: 'created' })
    expect(await verdictOf(older, 'the older head')).toMatchObject({ comment: 'kept' })
    expect(gh.comments.get(7)!.map(c => c.body)).toEqual([marked('### the newer head\n', newer)])
    expect(stdout.join('')).toContain(
      `pull request #7: comment left as it is: the comment reports head ${newer}, and this run's head ${older} is no longer the pull request's head (${newer}); this run's report is in the job summary`
    )
    // The older run's report is still its own: in its file, with its head.
    expect(fs.readFileSync(path.join(dir, `${older}.md`), 'utf8')).toBe(
      marked('### the older head\n', older)
    )
  })

  test('fork (403): warning, report in the job summary, the step does not fail', async () => {
    gh.readOnly.add('acme/search')
    const outcome = await publishPullRequestReport({
      comparison: regressed,
      markdown,
      commentKey: KEY,
      reportPath: path.join(dir, 'regression.md'),
      failOnRegression: false,
      onInconclusive: 'warn',
      head: null,
      comment: comment('search')
    })
    expect(outcome).toEqual({ comment: 'forbidden', failed: false })
    expect(stdout.join('')).toMatch(/::warning::the token may not comment on pull request #7 \(403/)
    expect(fs.readFileSync(process.env.GITHUB_STEP_SUMMARY!, 'utf8')).toContain(marked(markdown))
    expect(process.exitCode).toBeUndefined()
  })

  test('a report over GitHub’s limit: the comment is cut with a note, summary and file keep it all', async () => {
    // Many cases make a long report; with this many its Markdown is far beyond 65,536 characters.
    const many = Array.from({ length: 400 }, (_, i) => String(i + 1))
    const big = compareResult(
      makeResult(
        many.map(id => ({ id, metrics: { roundtrip: runs(0.13), 'r1:proc': runs(0.01) } }))
      ),
      many.map(id => makeEntry({ id, metrics: { roundtrip: runs(0.1), 'r1:proc': runs(0.01) } })),
      { threshold: 0.1, baseRef: 'main', mergeBaseSha: null }
    )
    const full = renderComparisonMarkdown(big)
    expect(full.length).toBeGreaterThan(65_536)
    const reportPath = path.join(dir, 'big.md')
    const outcome = await publishPullRequestReport({
      comparison: big,
      markdown: full,
      commentKey: KEY,
      reportPath,
      failOnRegression: false,
      onInconclusive: 'warn',
      head: null,
      comment: comment('search')
    })
    expect(outcome.comment).toBe('created')
    const body = gh.comments.get(7)![0].body
    expect(body.length).toBeLessThanOrEqual(COMMENT_LIMIT)
    expect(body.split('\n')[0]).toBe(commentMarker(KEY))
    expect(body.startsWith(marked(full).slice(0, 1000))).toBe(true)
    expect(body).toContain(
      `**Report truncated** (${marked(full).length} characters; GitHub takes at most 65,536): the full report is in the job summary and in ${reportPath}`
    )
    // A folded section cut open is closed again, so the note is not hidden inside it.
    expect(body.split('<details>').length).toBe(body.split('</details>').length)
    expect(fs.readFileSync(reportPath, 'utf8')).toBe(marked(full))
    expect(fs.readFileSync(process.env.GITHUB_STEP_SUMMARY!, 'utf8')).toContain(marked(full))
  })

  test('commenting off: outputs and summary only', async () => {
    const outcome = await publishPullRequestReport({
      comparison: regressed,
      markdown,
      commentKey: KEY,
      reportPath: path.join(dir, 'regression.md'),
      failOnRegression: false,
      onInconclusive: 'warn',
      head: null,
      comment: null
    })
    expect(outcome).toEqual({ comment: 'skipped', failed: false })
    expect(gh.log).toEqual([])
  })
})

describe('an answer that cannot tell', () => {
  // Two runs a side, a few percent apart, threshold 1 %: the interval is far wider than ±1 %.
  const wide = compareResult(
    makeResult([
      {
        id: '1',
        metrics: {
          roundtrip: [
            [0.1, 0.101],
            [0.104, 0.103]
          ]
        }
      }
    ]),
    [
      makeEntry({
        id: '1',
        metrics: {
          roundtrip: [
            [0.1, 0.1],
            [0.097, 0.098]
          ]
        }
      })
    ],
    { threshold: 0.01, baseRef: 'main', mergeBaseSha: null }
  )
  const md = renderComparisonMarkdown(wide)

  test('is inconclusive in the outputs and the report, with what it could have seen', () => {
    expect(wide.verdicts).toEqual([
      { case: '1', profile: 'burst', metric: 'roundtrip', verdict: 'inconclusive' }
    ])
    expect(md).toContain('### GNES latency: 🟡 inconclusive in 1 case')
    expect(md).toMatch(
      re`cannot tell a change from none\. They would find a change of ${PLUS_MINUS} with 80 % power`
    )
    expect(md).not.toContain('⚪')
  })

  test('on-inconclusive: warn names the case in a warning and the step passes', async () => {
    const outcome = await publishPullRequestReport({
      comparison: wide,
      markdown: md,
      commentKey: KEY,
      reportPath: path.join(dir, 'inconclusive.md'),
      failOnRegression: true,
      onInconclusive: 'warn',
      head: null,
      comment: null
    })
    expect(outcome.failed).toBe(false)
    const outputs = fs.readFileSync(process.env.GITHUB_OUTPUT!, 'utf8')
    expect(outputs).toMatch(/verdict<<.*\ninconclusive\n/)
    expect(outputs).toContain('"verdict":"inconclusive"')
    expect(stdout.join('')).toMatch(
      /::warning::this run cannot tell whether latency changed in case 1 \(burst\)/
    )
    expect(process.exitCode).toBeUndefined()
  })

  test('on-inconclusive: fail fails the step, saying why', async () => {
    const outcome = await publishPullRequestReport({
      comparison: wide,
      markdown: md,
      commentKey: KEY,
      reportPath: path.join(dir, 'inconclusive.md'),
      failOnRegression: false,
      onInconclusive: 'fail',
      head: null,
      comment: null
    })
    expect(outcome.failed).toBe(true)
    expect(stdout.join('')).toMatch(/::error::this run cannot tell .* \(on-inconclusive is fail\)/)
    expect(process.exitCode).toBe(1)
  })
})
