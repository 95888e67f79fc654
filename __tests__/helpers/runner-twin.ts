import { execFileSync, spawn } from 'node:child_process'
import Docker from 'dockerode'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { startFakeGitHub, type FakeGitHub } from '../fixtures/report/github-server'
import { gitIn } from './gnes-repo'

/**
 * The runner twin: a repository's workflow run by act (self-hosted, offline) as GitHub runs it on
 * pushes and pull requests, with the action's defaults: engine auto on a Docker daemon that holds
 * the default base image (python:3.11-slim, here a stand-in with its traits: Debian, Python 3.11,
 * no compiler) and, at the start of every run as on a fresh runner, no image the action builds,
 * no build cache and no provisioning directory; no wheelhouse; an Actions cache that starts empty
 * and keeps what the jobs save; a fresh gh-pages on a bare remote, and a local server speaking
 * GitHub's REST endpoints. Only actions/checkout is a stand-in (fixtures/runner-twin/checkout),
 * since act cannot fetch it offline.
 */

const project = path.join(__dirname, '..', '..')
const act =
  process.env.ACT ?? path.join(process.env.GOPATH ?? path.join(os.homedir(), 'go'), 'bin', 'act')
export const REPOSITORY = 'octo/repo'
const repository = { full_name: REPOSITORY, name: 'repo', owner: { login: 'octo' } }

export interface ActRun {
  code: number | null
  log: string
}

/** What a release of the action holds: its manifest, the bundles and the assets they read. */
function actionRelease(dir: string): string {
  for (const part of [
    'action.yml',
    'dist',
    'docker',
    'python',
    'templates',
    'topologies',
    'src/traces/proto'
  ]) {
    fs.cpSync(path.join(project, part), path.join(dir, part), { recursive: true })
  }
  return dir
}

/**
 * Removes the images a run builds (GNES from a checkout, the deps image it builds on, services
 * from their build contexts) and the build cache they left. The PyPI image other suites share
 * stays: these workflows never look for it.
 */
async function forgetBuiltImages(docker: Docker): Promise<void> {
  const built = /^gnes-latency-bench\/(gnes-source|gnes-deps|service):/
  const images = await docker.listImages()
  // By tag (forced: a container a killed run left may still use it): the deps image has the build
  // stages built on it as children; once untagged, the prune removes them and it.
  for (const tag of images.flatMap(i => i.RepoTags ?? []).filter(t => built.test(t))) {
    await docker.getImage(tag).remove({ force: true })
  }
  await docker.pruneImages()
}

const commitAll = (dir: string, message: string): string => {
  gitIn(dir, 'add', '-A')
  gitIn(dir, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', message)
  return gitIn(dir, 'rev-parse', 'HEAD')
}

const loadAverage = () =>
  os
    .loadavg()
    .map(l => l.toFixed(2))
    .join(' ')

export class RunnerTwin {
  readonly root = fs.mkdtempSync(path.join(os.tmpdir(), 'gnes-twin-'))
  readonly remote = path.join(this.root, 'server', `${REPOSITORY}.git`)
  private readonly server = `file://${path.join(this.root, 'server')}`
  private readonly action = actionRelease(fs.mkdtempSync(path.join(this.root, 'action-')))
  private readonly checkout = path.join(__dirname, '..', 'fixtures', 'runner-twin', 'checkout')
  // One Actions cache for every run, as a repository has; the provisioning directory the action
  // caches sits at one path on every runner, and starts empty on each.
  private readonly actionsCache = path.join(this.root, 'actions-cache')
  private readonly provisioned = path.join(this.root, 'runner-cache', 'gnes-latency-bench')
  github!: FakeGitHub
  private masterHead = ''

  /** master's head: the commit that put the workflow in. */
  get master(): string {
    return this.masterHead
  }

  /** `repo` with `workflow` committed on master, pushed to the bare remote. */
  async start(repo: string, workflow: string): Promise<void> {
    this.github = await startFakeGitHub()
    fs.mkdirSync(path.join(repo, '.github', 'workflows'), { recursive: true })
    fs.writeFileSync(path.join(repo, '.github', 'workflows', 'latency.yml'), workflow)
    this.masterHead = commitAll(repo, 'the latency workflow of README’s Quick start')
    fs.mkdirSync(this.remote, { recursive: true })
    gitIn(this.remote, 'init', '-q', '--bare')
    gitIn(repo, 'push', '-q', this.remote, 'master')
  }

  close(): void {
    this.github?.close()
  }

  /** The first push of master's head as GitHub sends it. */
  push(repo: string): Promise<ActRun> {
    const payload = {
      ref: 'refs/heads/master',
      after: this.master,
      repository,
      head_commit: { id: this.master, message: gitIn(repo, 'log', '-1', '--format=%s') }
    }
    return this.runAct('push', payload, 'refs/heads/master', this.master)
  }

  /** A branch off master with `edit`, pushed with its merge commit as refs/pull/N/merge, and run. */
  pullRequest(repo: string, number: number, branch: string, edit: (dir: string) => void) {
    gitIn(repo, 'checkout', '-q', '-b', branch, this.master)
    edit(repo)
    const head = commitAll(repo, `${branch}: the change under review`)
    gitIn(repo, 'checkout', '-q', '--detach', this.master)
    const as = ['-c', 'user.name=t', '-c', 'user.email=t@t']
    gitIn(repo, ...as, 'merge', '-q', '--no-ff', branch, '-m', `Merge ${head} into master`)
    const merge = gitIn(repo, 'rev-parse', 'HEAD')
    gitIn(repo, 'push', '-q', this.remote, branch, `${merge}:refs/pull/${number}/merge`)
    gitIn(repo, 'checkout', '-q', 'master')
    const payload = {
      number,
      repository,
      pull_request: {
        number,
        title: `${branch}: the change under review`,
        head: { sha: head, ref: branch, repo: repository },
        base: { sha: this.master, ref: 'master', repo: repository }
      }
    }
    return this.runAct('pull_request', payload, `refs/pull/${number}/merge`, merge)
  }

  /** act on `event`, in a clone of the remote at `sha` (where act reads GITHUB_SHA). */
  private async runAct(event: string, payload: object, ref: string, sha: string): Promise<ActRun> {
    await forgetBuiltImages(new Docker())
    fs.rmSync(this.provisioned, { recursive: true, force: true })
    const dir = fs.mkdtempSync(path.join(this.root, `${event}-`))
    const work = path.join(dir, 'work')
    execFileSync('git', ['clone', '-q', this.remote, work])
    gitIn(work, 'fetch', '-q', 'origin', ref)
    gitIn(work, 'checkout', '-q', '--detach', sha)
    fs.writeFileSync(path.join(dir, 'event.json'), JSON.stringify(payload))
    return this.spawnAct(dir, work, event, sha, [
      ...['-e', path.join(dir, 'event.json'), '-C', work],
      ...['-W', path.join(work, '.github', 'workflows', 'latency.yml')],
      ...['-P', 'ubuntu-latest=-self-hosted', '--action-offline-mode', '--no-skip-checkout'],
      // Actions are fetched from GITHUB_SERVER_URL, so that is the address they are matched by.
      ...['--local-repository', `${this.server}/your-org/gnes-latency-bench@v1=${this.action}`],
      ...['--local-repository', `${this.server}/actions/checkout@v4=${this.checkout}`],
      ...['--action-cache-path', path.join(dir, 'act'), '--cache-server-addr', '127.0.0.1'],
      ...['--cache-server-path', this.actionsCache],
      ...['--env', `GNES_BENCH_CACHE=${this.provisioned}`],
      ...['-s', 'GITHUB_TOKEN=test-token', '--env', `GITHUB_REF=${ref}`],
      ...['--env', `GITHUB_SERVER_URL=${this.server}`],
      ...['--env', `GITHUB_REPOSITORY=${REPOSITORY}`],
      ...['--env', `GITHUB_API_URL=${this.github.baseUrl}`]
    ])
  }

  /**
   * The log is written as it comes, to follow a run and to read it after a failure; the wall time
   * and load average go to the test's output (docs/benchmarks.md cites them).
   */
  private spawnAct(
    dir: string,
    work: string,
    event: string,
    sha: string,
    args: string[]
  ): Promise<ActRun> {
    const logFile = fs.createWriteStream(path.join(dir, 'act.log'))
    const started = Date.now()
    const loadBefore = loadAverage()
    return new Promise(resolve => {
      const child = spawn(act, [event, ...args], { cwd: work, stdio: ['ignore', 'pipe', 'pipe'] })
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
          `runner twin: ${event} ${sha.slice(0, 7)}: act exit ${code} in ${seconds} s; load average before ${loadBefore}, after ${loadAverage()}; log ${path.join(dir, 'act.log')}`
        )
        logFile.end(() => resolve({ code, log }))
      })
    })
  }
}
