/**
 * The runner twin: README's Quick start for a GNES repository, its workflow text taken from
 * README.md, run by act (self-hosted, offline) as GitHub runs it on a push and on pull requests,
 * with the action's defaults: engine auto on a Docker daemon that holds the default base image
 * (python:3.11-slim, here a stand-in with its traits: Debian, Python 3.11, no compiler) and no
 * GNES image or build cache, no wheelhouse, an empty Actions cache, a fresh gh-pages on a bare
 * remote, and a local server speaking GitHub's REST endpoints. Only actions/checkout is a stand-in
 * (fixtures/runner-twin/checkout), since act cannot fetch it offline.
 */
import { execFileSync, spawn } from 'node:child_process'
import Docker from 'dockerode'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { readBranchHistory } from '../src/history'
import { seriesKey } from '../src/history/schema'
import { startFakeGitHub, type FakeGitHub } from './fixtures/report/github-server'
import { describeDocker } from './helpers/docker'
import { gnesRepository, gitIn, slowRouters } from './helpers/gnes-repo'
import { quickStartWorkflow } from './helpers/readme'

const project = path.join(__dirname, '..')
const act =
  process.env.ACT ?? path.join(process.env.GOPATH ?? path.join(os.homedir(), 'go'), 'bin', 'act')
const REPOSITORY = 'octo/gnes'

interface ActRun {
  code: number | null
  log: string
}

/** What a release of the action holds: its manifest, the bundles and the assets they read. */
function actionRelease(dir: string): string {
  for (const part of ['action.yml', 'dist', 'docker', 'python', 'templates', 'topologies']) {
    fs.cpSync(path.join(project, part), path.join(dir, part), { recursive: true })
  }
  return dir
}

/** Removes every GNES image and the build cache they left, as on a runner that never built one. */
async function forgetGnesImages(docker: Docker): Promise<void> {
  const images = await docker.listImages({
    filters: JSON.stringify({ label: ['io.gnes-latency-bench.base-image'] })
  })
  for (const image of images) await docker.getImage(image.Id).remove({ force: true })
  await docker.pruneImages()
}

const commit = (dir: string, message: string): string => {
  gitIn(dir, 'add', '-A')
  gitIn(dir, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', message)
  return gitIn(dir, 'rev-parse', 'HEAD')
}

describeDocker('the runner twin: README’s Quick start under act, as GitHub runs it', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'gnes-twin-'))
  const remote = path.join(root, 'server', `${REPOSITORY}.git`)
  const server = `file://${path.join(root, 'server')}`
  const action = actionRelease(fs.mkdtempSync(path.join(root, 'action-')))
  const checkout = path.join(__dirname, 'fixtures', 'runner-twin', 'checkout')
  let repo: string
  let master: string
  let github: FakeGitHub

  beforeAll(async () => {
    github = await startFakeGitHub()
    await forgetGnesImages(new Docker())
    // The GNES repository: 0.0.47's source tree and the Quick start's workflow, on master.
    repo = (await gnesRepository(['0.0.47'])).dir
    fs.mkdirSync(path.join(repo, '.github', 'workflows'), { recursive: true })
    fs.writeFileSync(path.join(repo, '.github', 'workflows', 'latency.yml'), quickStartWorkflow())
    master = commit(repo, 'the latency workflow of README’s Quick start')
    fs.mkdirSync(remote, { recursive: true })
    gitIn(remote, 'init', '-q', '--bare')
    gitIn(repo, 'push', '-q', remote, 'master')
  })
  afterAll(() => github.close())

  /** act on `event`, in a clone of the remote at `sha` (where act reads GITHUB_SHA). */
  function runAct(event: string, payload: object, ref: string, sha: string): Promise<ActRun> {
    const dir = fs.mkdtempSync(path.join(root, `${event}-`))
    const work = path.join(dir, 'work')
    execFileSync('git', ['clone', '-q', remote, work])
    gitIn(work, 'fetch', '-q', 'origin', ref)
    gitIn(work, 'checkout', '-q', '--detach', sha)
    fs.writeFileSync(path.join(dir, 'event.json'), JSON.stringify(payload))
    const args = [
      event,
      ...['-e', path.join(dir, 'event.json'), '-C', work],
      ...['-W', path.join(work, '.github', 'workflows', 'latency.yml')],
      ...['-P', 'ubuntu-latest=-self-hosted', '--action-offline-mode', '--no-skip-checkout'],
      // Actions are fetched from GITHUB_SERVER_URL, so that is the address they are matched by.
      ...['--local-repository', `${server}/your-org/gnes-latency-bench@v1=${action}`],
      ...['--local-repository', `${server}/actions/checkout@v4=${checkout}`],
      ...['--action-cache-path', path.join(dir, 'act'), '--cache-server-addr', '127.0.0.1'],
      ...['--cache-server-path', path.join(dir, 'actions-cache')],
      ...['-s', 'GITHUB_TOKEN=test-token', '--env', `GITHUB_REF=${ref}`],
      ...['--env', `GITHUB_SERVER_URL=${server}`],
      ...['--env', `GITHUB_REPOSITORY=${REPOSITORY}`, '--env', `GITHUB_API_URL=${github.baseUrl}`]
    ]
    // The log is written as it comes, to follow a run and to read it after a failure; the wall
    // time and load average go to the test's output (docs/benchmarks.md cites them).
    const logFile = fs.createWriteStream(path.join(dir, 'act.log'))
    const started = Date.now()
    const load = () =>
      os
        .loadavg()
        .map(l => l.toFixed(2))
        .join(' ')
    const loadBefore = load()
    return new Promise(resolve => {
      const child = spawn(act, args, { cwd: work, stdio: ['ignore', 'pipe', 'pipe'] })
      let log = ''
      const take = (d: Buffer) => {
        log += d
        logFile.write(d)
      }
      child.stdout.on('data', take)
      child.stderr.on('data', take)
      child.on('close', code => {
        const seconds = ((Date.now() - started) / 1000).toFixed(0)
        console.log(
          `runner twin: ${event} ${sha.slice(0, 7)}: act exit ${code} in ${seconds} s; load average before ${loadBefore}, after ${load()}; log ${path.join(dir, 'act.log')}`
        )
        logFile.end(() => resolve({ code, log }))
      })
    })
  }

  /** A branch off master with `edit`, pushed, and its merge commit as refs/pull/N/merge. */
  function pullRequest(number: number, branch: string, edit: (dir: string) => void) {
    gitIn(repo, 'checkout', '-q', '-b', branch, master)
    edit(repo)
    const head = commit(repo, `${branch}: the change under review`)
    gitIn(repo, 'checkout', '-q', '--detach', master)
    gitIn(
      repo,
      '-c',
      'user.name=t',
      '-c',
      'user.email=t@t',
      'merge',
      '-q',
      '--no-ff',
      branch,
      '-m',
      `Merge ${head} into ${master}`
    )
    const merge = gitIn(repo, 'rev-parse', 'HEAD')
    gitIn(repo, 'push', '-q', remote, branch, `${merge}:refs/pull/${number}/merge`)
    gitIn(repo, 'checkout', '-q', 'master')
    const ref = `refs/pull/${number}/merge`
    const repository = { full_name: REPOSITORY, name: 'gnes', owner: { login: 'octo' } }
    const payload = {
      number,
      repository,
      pull_request: {
        number,
        title: `${branch}: the change under review`,
        head: { sha: head, ref: branch, repo: repository },
        base: { sha: master, ref: 'master', repo: repository }
      }
    }
    return { payload, ref, merge }
  }

  it('on a push to master, builds GNES from the checkout on the compiler-less base and records it on gh-pages', async () => {
    const payload = {
      ref: 'refs/heads/master',
      after: master,
      repository: { full_name: REPOSITORY, name: 'gnes', owner: { login: 'octo' } },
      head_commit: { id: master, message: 'the latency workflow' }
    }
    const run = await runAct('push', payload, 'refs/heads/master', master)
    expect(run.log).toMatch(/Job succeeded/)
    expect(run.code).toBe(0)
    // No GNES image to find: the build installs a compiler in its build stage and compiles GNES.
    expect(run.log).toMatch(/engine: docker/)
    expect(run.log).toMatch(
      /building gnes-latency-bench\/gnes-source:\w+ \(GNES from .* on python:3\.11-slim\)/
    )
    expect(run.log).toMatch(/Building wheel for gnes/)
    expect(run.log).not.toMatch(/built before|loaded from its archive/)
    expect(run.log).toMatch(/recorded alone/)
    const history = await readBranchHistory({ repo: remote, branch: 'gh-pages', dir: 'benchmarks' })
    expect(history.map(e => [seriesKey(e), e.commit.sha])).toEqual([['1/minimal@5', master]])
  })

  it('on a pull request that changes nothing GNES runs, comments without a regression', async () => {
    const pr = pullRequest(1, 'docs', dir =>
      fs.writeFileSync(path.join(dir, 'NOTES.md'), 'notes\n')
    )
    const run = await runAct('pull_request', pr.payload, pr.ref, pr.merge)
    expect(run.log).toMatch(/Job succeeded/)
    expect(run.log).toMatch(/the base is the pull request's merge-base/)
    const [comment] = github.comments.get(1) ?? []
    expect(comment.body).toMatch(/gnes-latency-bench/)
    expect(comment.body).not.toMatch(/🔴|regression in/)
    expect(comment.body).toMatch(/no change|inconclusive/)
  })

  it('on a pull request that makes the routers 1 ms slower, comments a regression', async () => {
    const pr = pullRequest(2, 'slow', slowRouters(1))
    const run = await runAct('pull_request', pr.payload, pr.ref, pr.merge)
    const [comment] = github.comments.get(2) ?? []
    expect(comment.body).toMatch(/🔴 regression in 1 case/)
    expect(run.log).toMatch(/Job succeeded/)
  })
})
