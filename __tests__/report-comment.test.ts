import { mayReplace, postOrUpdateComment } from '../src/action/comment'
import {
  commentMarker,
  markerKey,
  markerLine,
  markReport,
  readMarker,
  REPORT_MARKER
} from '../src/report/comment-marker'
import { chatter, startFakeGitHub, type FakeGitHub } from './fixtures/report/github-server'

let gh: FakeGitHub
beforeEach(async () => {
  gh = await startFakeGitHub()
})
afterEach(() => gh.close())

const KEY = 'Latency (PR) / bench'
const PR = commentMarker(KEY)
const PAIRED = commentMarker('Latency (PR, paired) / bench')

/** A report's text as the action posts it: its marker line first (a body not starting so is marked here). */
const target = (
  issueNumber: number,
  body: string,
  repo = 'search',
  marker = PR,
  head: string | null = null
) => ({
  token: 'test-token',
  owner: 'acme',
  repo,
  issueNumber,
  marker,
  head,
  body: body.startsWith(marker) ? body : `${marker}\n${body}`,
  baseUrl: gh.baseUrl
})
const outcome = async (t: ReturnType<typeof target>) => (await postOrUpdateComment(t)).outcome

describe('postOrUpdateComment against a local server speaking GitHub REST endpoints', () => {
  test('creates the comment when no page holds the marker, reading every page first', async () => {
    gh.comments.set(7, chatter(250))
    expect(await outcome(target(7, `${PR}\nreport v1`))).toBe('created')
    const gets = gh.log.filter(l => l.startsWith('GET'))
    expect(gets).toHaveLength(3) // 250 comments at 100 a page
    expect(gets[2]).toContain('page=3')
    const mine = gh.comments.get(7)!.filter(c => c.body.includes(PR))
    expect(mine).toHaveLength(1)
    expect(mine[0].body).toBe(`${PR}\nreport v1`)
  })

  test('finds the marker on a later page and updates that comment in place', async () => {
    const ours = { id: 777, body: `${PR}\nreport v1` }
    gh.comments.set(7, [...chatter(150), ours, ...chatter(120)])
    expect(await outcome(target(7, `${PR}\nreport v2`))).toBe('updated')
    expect(gh.comments.get(7)).toHaveLength(271)
    expect(ours.body).toBe(`${PR}\nreport v2`)
    expect(gh.log.filter(l => l.startsWith('GET'))).toHaveLength(2) // stops at the page with it
    expect(gh.log).toContain('PATCH /repos/acme/search/issues/comments/777')
    expect(gh.log.some(l => l.startsWith('POST'))).toBe(false)
  })

  test('a second post updates the first: one comment per pull request and key', async () => {
    await postOrUpdateComment(target(8, 'first'))
    await postOrUpdateComment(target(8, 'second'))
    expect(gh.comments.get(8)).toEqual([{ id: 1000, body: `${PR}\nsecond` }])
  })

  test('two keys keep two comments, each edited by its own key only', async () => {
    await postOrUpdateComment(target(8, 'history v1'))
    await postOrUpdateComment(target(8, 'paired v1', 'search', PAIRED))
    await postOrUpdateComment(target(8, 'history v2'))
    await postOrUpdateComment(target(8, 'paired v2', 'search', PAIRED))
    expect(gh.comments.get(8)!.map(c => c.body)).toEqual([
      `${PR}\nhistory v2`,
      `${PAIRED}\npaired v2`
    ])
  })

  test('a comment from before keys, a quote of ours or our marker further down is not ours', async () => {
    const legacy = { id: 1, body: `${REPORT_MARKER}\n### GNES latency: old report` }
    const quoted = { id: 2, body: `> ${PR}\n> the report said` }
    const later = { id: 3, body: `see below\n${PR}\nreport` }
    gh.comments.set(9, [legacy, quoted, later])
    expect(await outcome(target(9, 'report v1'))).toBe('created')
    expect(
      gh.comments
        .get(9)!
        .slice(0, 3)
        .map(c => c.body)
    ).toEqual([legacy.body, quoted.body, later.body])
    // A comment edited in GitHub's web form comes back with CRLF line ends: still ours.
    gh.comments.get(9)![3].body = `${PR}\r\nreport v1, edited`
    expect(await outcome(target(9, 'report v2'))).toBe('updated')
    expect(gh.comments.get(9)).toHaveLength(4)
  })

  test("a fork's read-only token gets 403: 'forbidden', nothing thrown", async () => {
    gh.readOnly.add('acme/fork-target')
    gh.comments.set(9, chatter(3))
    expect(await outcome(target(9, 'report', 'fork-target'))).toBe('forbidden')
    gh.comments.set(9, [...chatter(3), { id: 55, body: PR }])
    expect(await outcome(target(9, 'report', 'fork-target'))).toBe('forbidden')
  })

  test('two runs of one pull request finishing out of order: the comment ends with the newer head', async () => {
    const [older, newer] = ['a'.repeat(40), 'b'.repeat(40)]
    const run = (head: string) =>
      target(7, markReport(`verdict of ${head.slice(0, 7)}\n`, KEY, head), 'search', PR, head)
    // The pull request was pushed again while the older head's run was still measuring.
    gh.pulls.push({ number: 7, head: { sha: newer, ref: 'feature', label: 'acme:feature' } })
    gh.comments.set(7, chatter(3))
    expect(await outcome(run(newer))).toBe('created')
    const late = await postOrUpdateComment(run(older))
    expect(late).toEqual({
      outcome: 'kept',
      reason: `the comment reports head ${newer}, and this run's head ${older} is no longer the pull request's head (${newer})`
    })
    expect(gh.comments.get(7)!.map(c => c.body)).toEqual([
      ...chatter(3).map(c => c.body),
      `${markerLine(KEY, newer)}\nverdict of bbbbbbb\n`
    ])
    expect(gh.log.filter(l => l.startsWith('PATCH'))).toEqual([])

    // In the order they were pushed, each run reports its head in turn.
    gh.comments.set(7, [])
    expect(await outcome(run(older))).toBe('created')
    expect(await outcome(run(newer))).toBe('updated')
    expect(gh.comments.get(7)!.map(c => c.body)).toEqual([
      `${markerLine(KEY, newer)}\nverdict of bbbbbbb\n`
    ])
  })

  test('a run replaces a report of its own head or of none without asking; a current head replaces any', async () => {
    const [a, b] = ['a'.repeat(40), 'b'.repeat(40)]
    const run = (head: string | null, text: string) =>
      target(8, markReport(text, KEY, head), 'search', PR, head)
    gh.comments.set(8, [{ id: 1, body: `${PR}\na report from before heads` }])
    expect(await outcome(run(a, 'a, first'))).toBe('updated')
    expect(await outcome(run(a, 'a, re-run'))).toBe('updated')
    expect(gh.log.some(l => /\/pulls\//.test(l))).toBe(false)
    gh.pulls.push({ number: 8, head: { sha: b, ref: 'feature', label: 'acme:feature' } })
    expect(await outcome(run(b, 'b'))).toBe('updated')
    expect(gh.log.filter(l => /\/pulls\//.test(l))).toEqual(['GET /repos/acme/search/pulls/8'])
    expect(gh.comments.get(8)).toEqual([{ id: 1, body: `${markerLine(KEY, b)}\nb` }])
  })

  test("when the pull request's head cannot be read, another head's report is kept", async () => {
    const [a, b] = ['a'.repeat(40), 'b'.repeat(40)]
    gh.comments.set(9, [{ id: 1, body: markReport('b\n', KEY, b) }])
    const late = await postOrUpdateComment(target(9, markReport('a\n', KEY, a), 'search', PR, a))
    expect(late.outcome).toBe('kept')
    expect(late).toMatchObject({
      reason: expect.stringMatching(/current head could not be read \(Not Found.*\)/)
    })
    expect(gh.comments.get(9)).toEqual([{ id: 1, body: markReport('b\n', KEY, b) }])
  })

  test('other errors are not swallowed', async () => {
    await expect(postOrUpdateComment({ ...target(7, 'x'), token: 'wrong' })).rejects.toThrow(
      /Bad credentials/
    )
  })
})

describe('the head a marker line reports', () => {
  const sha = 'c'.repeat(40)

  test('is read from the first line alone, the marker and one head tag with nothing around them', () => {
    expect(readMarker(markReport('report\n', KEY, sha), PR)).toEqual({ head: sha })
    expect(readMarker(`${PR}\r\nedited on the web`, PR)).toEqual({ head: null })
    const sha256 = 'd'.repeat(64)
    expect(readMarker(markReport('report', KEY, sha256), PR)).toEqual({ head: sha256 })
    for (const forged of [
      `${PR} <!-- head: ${sha} -->`,
      `${PR}<!-- head: ${sha} --> and more`,
      `${PR}<!-- head: ${sha} --><!-- head: ${sha} -->`,
      `${PR}<!-- head: ${sha.toUpperCase()} -->`,
      `${PR}<!-- head: ${sha.slice(1)} -->`,
      `${PR}<!-- head: ${sha}0 -->`,
      `> ${PR}<!-- head: ${sha} -->`,
      `text\n${PR}<!-- head: ${sha} -->`,
      `${commentMarker(`${KEY} 2`)}<!-- head: ${sha} -->`
    ])
      expect(readMarker(forged, PR)).toBeNull()
    expect(readMarker(null, PR)).toBeNull()
  })

  test('a head that is not a commit id is left out of the marker line', () => {
    for (const head of [null, '', 'main', `${sha} --> <b>`, `${sha}\n`])
      expect(markerLine(KEY, head)).toBe(PR)
    expect(markerLine(KEY, sha)).toBe(`${PR}<!-- head: ${sha} -->`)
  })

  test('who may replace a report: any run its own head or none, another head only the current one', () => {
    const [a, b, c] = ['a', 'b', 'c'].map(x => x.repeat(40))
    expect(mayReplace(a, null, null)).toBe(true)
    expect(mayReplace(a, a, null)).toBe(true)
    expect(mayReplace(null, a, null)).toBe(true)
    expect(mayReplace(b, a, b)).toBe(true)
    expect(mayReplace(a, b, b)).toBe(false)
    expect(mayReplace(a, b, c)).toBe(false)
    expect(mayReplace(a, b, null)).toBe(false)
  })
})

describe('a comment key in the marker', () => {
  /** What GitHub would read inside the marker's HTML comment, or null where it ends early. */
  const insideComment = (line: string): string[] =>
    [...line.matchAll(/<!--(.*?)-->/g)].map(m => m[1])

  test('stays inside its HTML comment on one line, whatever the workflow or matrix holds', () => {
    const hostile = [
      'Latency --> <img src=x onerror=alert(1)> <!-- again',
      'a --!> b',
      'line\nbreak\r\nand\ttab',
      'ends with <!-',
      'emoji 🐢 and \u2028 separator',
      'lone surrogate \ud800 here'
    ]
    for (const key of hostile) {
      const marker = commentMarker(key)
      expect(marker.split(/\r?\n|\u2028|\u2029/)).toHaveLength(1)
      expect(marker).toMatch(/^<!-- gnes-latency-bench --><!-- comment-key: [ -;=?-~]+ -->$/)
      expect(insideComment(marker)).toEqual([
        ' gnes-latency-bench ',
        ` comment-key: ${markerKey(key)} `
      ])
    }
    expect(markerKey('Latency --> <b>')).toBe('Latency --%3E %3Cb%3E')
  })

  test('two keys give two markers; whitespace alone does not make a key another', () => {
    const keys = ['50%', '50%25', 'a<b', 'a%3Cb', 'ü', '%C3%BC', 'Latency / bench / {"case": "1"}']
    expect(new Set(keys.map(markerKey)).size).toBe(keys.length)
    const matrix = 'Latency / bench / {\n  "case": "1",\n  "engine": "docker"\n}'
    expect(markerKey(matrix)).toBe('Latency / bench / { "case": "1", "engine": "docker" }')
    expect(markerKey(' a  b ')).toBe(markerKey('a b'))
  })

  test('a long key keeps its head and a hash of the whole: two long keys stay two', () => {
    const a = `Latency / bench / ${'x'.repeat(300)} a`
    const b = `Latency / bench / ${'x'.repeat(300)} b`
    expect(markerKey(a)).toHaveLength(160)
    expect(markerKey(a).startsWith('Latency / bench / xxx')).toBe(true)
    expect(markerKey(a)).not.toBe(markerKey(b))
    expect(markerKey(a)).toBe(markerKey(a))
  })
})
