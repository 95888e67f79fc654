import { postOrUpdateComment } from '../src/action/comment'
import { COMMENT_MARKER } from '../src/report/markdown'
import { chatter, startFakeGitHub, type FakeGitHub } from './fixtures/report/github-server'

let gh: FakeGitHub
beforeEach(async () => {
  gh = await startFakeGitHub()
})
afterEach(() => gh.close())

const target = (issueNumber: number, body: string, repo = 'search') => ({
  token: 'test-token',
  owner: 'acme',
  repo,
  issueNumber,
  body,
  baseUrl: gh.baseUrl
})

describe('postOrUpdateComment against a local server speaking GitHub REST endpoints', () => {
  test('creates the comment when no page holds the marker, reading every page first', async () => {
    gh.comments.set(7, chatter(250))
    expect(await postOrUpdateComment(target(7, `${COMMENT_MARKER}\nreport v1`))).toBe('created')
    const gets = gh.log.filter(l => l.startsWith('GET'))
    expect(gets).toHaveLength(3) // 250 comments at 100 a page
    expect(gets[2]).toContain('page=3')
    const mine = gh.comments.get(7)!.filter(c => c.body.includes(COMMENT_MARKER))
    expect(mine).toHaveLength(1)
    expect(mine[0].body).toBe(`${COMMENT_MARKER}\nreport v1`)
  })

  test('finds the marker on a later page and updates that comment in place', async () => {
    const ours = { id: 777, body: `${COMMENT_MARKER}\nreport v1` }
    gh.comments.set(7, [...chatter(150), ours, ...chatter(120)])
    expect(await postOrUpdateComment(target(7, `${COMMENT_MARKER}\nreport v2`))).toBe('updated')
    expect(gh.comments.get(7)).toHaveLength(271)
    expect(ours.body).toBe(`${COMMENT_MARKER}\nreport v2`)
    expect(gh.log.filter(l => l.startsWith('GET'))).toHaveLength(2) // stops at the page with it
    expect(gh.log).toContain('PATCH /repos/acme/search/issues/comments/777')
    expect(gh.log.some(l => l.startsWith('POST'))).toBe(false)
  })

  test('a second post updates the first: one comment per pull request', async () => {
    await postOrUpdateComment(target(8, 'first'))
    await postOrUpdateComment(target(8, 'second'))
    expect(gh.comments.get(8)).toEqual([{ id: 1000, body: `${COMMENT_MARKER}\nsecond` }])
  })

  test("a fork's read-only token gets 403: 'forbidden', nothing thrown", async () => {
    gh.readOnly.add('acme/fork-target')
    gh.comments.set(9, chatter(3))
    expect(await postOrUpdateComment(target(9, 'report', 'fork-target'))).toBe('forbidden')
    gh.comments.set(9, [...chatter(3), { id: 55, body: COMMENT_MARKER }])
    expect(await postOrUpdateComment(target(9, 'report', 'fork-target'))).toBe('forbidden')
  })

  test('other errors are not swallowed', async () => {
    await expect(postOrUpdateComment({ ...target(7, 'x'), token: 'wrong' })).rejects.toThrow(
      /Bad credentials/
    )
  })
})
