import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { appendToBranch, readBranchHistory } from '../src/history/branch-store'
import { entriesFromResult } from '../src/history/from-result'
import { git, initBare } from './fixtures/history/git'
import { startGitServer } from './fixtures/history/http-git'
import { makeResult } from './fixtures/history/result'

const TOKEN = 'ghs_secret-token-123'
const BASIC = `basic ${Buffer.from(`x-access-token:${TOKEN}`).toString('base64')}`

let tmp: string
let server: Awaited<ReturnType<typeof startGitServer>>
beforeEach(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'history-http-'))
  initBare(path.join(tmp, 'repos', 'remote.git'))
  server = await startGitServer(path.join(tmp, 'repos'), BASIC)
})
afterEach(async () => {
  await server.close()
  fs.rmSync(tmp, { recursive: true, force: true })
})

test('over HTTPS-style remotes the token goes as a header, never in a URL', async () => {
  const repo = `${server.url}/remote.git`
  const entries = entriesFromResult(makeResult())
  const out = await appendToBranch({
    repo,
    branch: 'gh-pages',
    dir: 'benchmarks',
    token: TOKEN,
    entries
  })
  expect(out.pushed).toBe(true)
  expect(git(path.join(tmp, 'repos', 'remote.git'), 'rev-parse', 'gh-pages').trim()).toBe(
    out.commit
  )
  expect(
    await readBranchHistory({ repo, branch: 'gh-pages', dir: 'benchmarks', token: TOKEN })
  ).toEqual(entries)

  expect(server.seen.some(r => r.url.includes('git-receive-pack'))).toBe(true)
  for (const r of server.seen) {
    expect(r.authorization).toBe(BASIC)
    expect(r.url).not.toContain(TOKEN)
  }
})

test('without the token the append fails and pushes nothing', async () => {
  const attempt = appendToBranch({
    repo: `${server.url}/remote.git`,
    branch: 'gh-pages',
    dir: 'benchmarks',
    entries: entriesFromResult(makeResult())
  })
  await expect(attempt).rejects.toThrow(
    /git fetch failed: .*(401|Authentication failed|could not read Username)/s
  )
  expect(git(path.join(tmp, 'repos', 'remote.git'), 'branch', '--list')).toBe('')
})
