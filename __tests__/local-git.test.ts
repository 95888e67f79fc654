import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { githubRepository, localGitMeta } from '../src/result/local-git'
import { git as run } from './fixtures/history/git'

const none = { sha: null, ref: null, message: null, repository: null }
const git = (cwd: string, ...args: string[]) => run(cwd, ...args).trim()

let tmp: string
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'local-git-'))
})
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }))

test('a run inside a git work tree records its HEAD, branch, subject and GitHub repository', async () => {
  git(tmp, 'init', '-q', '-b', 'feature/x')
  git(tmp, 'remote', 'add', 'origin', 'git@github.com:octo/bench.git')
  git(tmp, 'commit', '-q', '--allow-empty', '-m', 'Faster router\n\nThe body is not the subject.')
  fs.mkdirSync(path.join(tmp, 'sub'))
  expect(await localGitMeta(path.join(tmp, 'sub'), none)).toEqual({
    sha: git(tmp, 'rev-parse', 'HEAD'),
    ref: 'refs/heads/feature/x',
    event: null,
    repository: 'octo/bench',
    runId: null,
    serverUrl: 'https://github.com',
    message: 'Faster router'
  })
  // A detached HEAD has no branch; flags win over the work tree.
  git(tmp, 'checkout', '-q', '--detach')
  const flagged = await localGitMeta(tmp, {
    sha: 'a'.repeat(40),
    ref: 'refs/tags/v1.2.3',
    message: 'release',
    repository: 'other/repo'
  })
  expect(flagged).toMatchObject({
    sha: 'a'.repeat(40),
    ref: 'refs/tags/v1.2.3',
    message: 'release',
    repository: 'other/repo'
  })
  expect((await localGitMeta(tmp, none)).ref).toBeNull()
})

test('outside a work tree only the flags are recorded; only GitHub remotes name a repository', async () => {
  expect(await localGitMeta(tmp, none)).toEqual({
    sha: null,
    ref: null,
    event: null,
    repository: null,
    runId: null,
    serverUrl: null,
    message: null
  })
  for (const url of [
    'https://github.com/octo/bench.git',
    'https://x-access-token:abc@github.com/octo/bench',
    'ssh://git@github.com/octo/bench.git',
    'git@github.com:octo/bench'
  ]) {
    expect(githubRepository(url)).toEqual({
      repository: 'octo/bench',
      serverUrl: 'https://github.com'
    })
  }
  expect(githubRepository('https://gitlab.com/octo/bench.git')).toBeNull()
  expect(githubRepository('/srv/git/bench.git')).toBeNull()
})
