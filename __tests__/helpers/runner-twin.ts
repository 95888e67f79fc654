import { execFileSync, spawn } from 'node:child_process'
import Docker from 'dockerode'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { startFakeGitHub, type FakeGitHub } from '../fixtures/report/github-server'
import { gitIn } from './gnes-repo'
import { PROJECT } from './project'
import { tmp } from './tmp'

/**
 * The runner twin: a repository's workflows run by act (self-hosted, offline) as GitHub runs them
 * on pushes, pull requests (also from forks), releases, schedules, runs by hand
 * (workflow_dispatch) and completed runs of other workflows (workflow_run), with the action's
 * defaults: engine auto on a Docker daemon that holds the default base image (python:3.11-slim,
 * here a stand-in with its traits: Debian, Python 3.11, no compiler) and, at the start of every run
 * as on a fresh runner, no image the action builds, no build cache and no provisioning directory;
 * no wheelhouse; an Actions cache that starts empty and keeps what the jobs save; an artifact store
 * kept across runs by run id; a fresh gh-pages on a bare remote, the action's release as
 * your-org/gnes-latency-bench@v1 there too, and a local server speaking GitHub's REST endpoints.
 * The other actions the workflows use are stand-ins (fixtures/runner-twin/*, each saying what of
 * the real one it reproduces), since act cannot fetch them offline.
 */

const act =
  process.env.ACT ?? path.join(process.env.GOPATH ?? path.join(os.homedir(), 'go'), 'bin', 'act')
export const REPOSITORY = 'octo/repo'
const repository = { full_name: REPOSITORY, name: 'repo', owner: { login: 'octo' } }

export interface ActRun {
  code: number | null
  log: string
  /** GITHUB_RUN_ID of the run: its artifacts are kept under it. */
  runId: number
  seconds: number
  loadBefore: number[]
  loadAfter: number[]
}

export interface PullRequestRun extends ActRun {
  number: number
  branch: string
  /** The pull request's head commit. */
  head: string
  /** Its test merge (refs/pull/N/merge): the default branch's head and the pull request's. */
  merge: string
  /** The owner of the fork it comes from, or undefined for a branch of the repository. */
  fork?: string
}

/** Which of the committed workflows to run (default: the first). */
export interface RunOptions {
  workflow?: string
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
    fs.cpSync(path.join(PROJECT, part), path.join(dir, part), { recursive: true })
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

const fixtures = path.join(PROJECT, '__tests__', 'fixtures', 'runner-twin')

/** The actions the workflows use, by the reference they name, and their stand-ins. */
const STAND_INS: Record<string, string> = {
  'actions/checkout@v4': 'checkout',
  'actions/setup-python@v5': 'setup-python',
  'actions/upload-artifact@v4': 'upload-artifact',
  'actions/download-artifact@v4': 'download-artifact',
  'actions/github-script@v7': 'github-script'
}

/** The action's release as its repository on the server: tag v1, for `actions/checkout` of it. */
function releaseRepository(release: string, bare: string): void {
  fs.mkdirSync(path.dirname(bare), { recursive: true })
  const work = fs.mkdtempSync(path.join(path.dirname(bare), 'release-'))
  fs.cpSync(release, work, { recursive: true })
  gitIn(work, 'init', '-q', '-b', 'main')
  commitAll(work, 'the release')
  gitIn(work, 'tag', 'v1')
  fs.mkdirSync(bare, { recursive: true })
  gitIn(bare, 'init', '-q', '--bare')
  gitIn(work, 'push', '-q', bare, 'main', 'v1')
  fs.rmSync(work, { recursive: true, force: true })
}

/** Load averages (1, 5, 15 min) as the twin's lines print them. */
export const loadText = (l: number[]): string => l.map(v => v.toFixed(2)).join(' ')

export class RunnerTwin {
  readonly root = tmp('gnes-twin-')
  readonly remote = path.join(this.root, 'server', `${REPOSITORY}.git`)
  /** Every run's artifacts: <run id>/<name>/. */
  readonly artifacts = path.join(this.root, 'artifacts')
  private readonly server = `file://${path.join(this.root, 'server')}`
  private readonly action = actionRelease(fs.mkdtempSync(path.join(this.root, 'action-')))
  // One Actions cache for every run, as a repository has; the provisioning directory the action
  // caches sits at one path on every runner, and starts empty on each.
  private readonly actionsCache = path.join(this.root, 'actions-cache')
  private readonly provisioned = path.join(this.root, 'runner-cache', 'gnes-latency-bench')
  github!: FakeGitHub
  private masterHead = ''
  private branch = 'master'
  private workflows: string[] = []
  private runs = 0

  /** The default branch's head: the commit that put the workflows in. */
  get master(): string {
    return this.masterHead
  }

  /**
   * `repo` with `workflows` (file name → text; one text is latency.yml) committed on its default
   * `branch`, pushed to the bare remote.
   */
  async start(
    repo: string,
    workflows: string | Record<string, string>,
    branch = 'master'
  ): Promise<void> {
    this.github = await startFakeGitHub()
    this.branch = branch
    const files = typeof workflows === 'string' ? { 'latency.yml': workflows } : workflows
    this.workflows = Object.keys(files)
    fs.mkdirSync(path.join(repo, '.github', 'workflows'), { recursive: true })
    for (const [name, text] of Object.entries(files)) {
      fs.writeFileSync(path.join(repo, '.github', 'workflows', name), text)
    }
    this.masterHead = commitAll(repo, `the workflows ${this.workflows.join(', ')}`)
    fs.mkdirSync(this.remote, { recursive: true })
    gitIn(this.remote, 'init', '-q', '--bare')
    gitIn(this.remote, 'symbolic-ref', 'HEAD', `refs/heads/${branch}`)
    gitIn(repo, 'push', '-q', this.remote, branch)
    releaseRepository(
      this.action,
      path.join(this.root, 'server', 'your-org', 'gnes-latency-bench.git')
    )
  }

  close(): void {
    this.github?.close()
  }

  /** The first push of the default branch's head as GitHub sends it. */
  push(repo: string, o: RunOptions = {}): Promise<ActRun> {
    const payload = {
      ref: `refs/heads/${this.branch}`,
      after: this.master,
      repository,
      head_commit: { id: this.master, message: gitIn(repo, 'log', '-1', '--format=%s') }
    }
    return this.runAct('push', payload, `refs/heads/${this.branch}`, this.master, o)
  }

  /**
   * The default branch moves on by a commit with `edit`, pushed (no workflow runs): the base that
   * pull requests forked earlier are now behind.
   */
  advance(repo: string, message: string, edit: (dir: string) => void): string {
    gitIn(repo, 'checkout', '-q', this.branch)
    edit(repo)
    this.masterHead = commitAll(repo, message)
    gitIn(repo, 'push', '-q', this.remote, this.branch)
    return this.masterHead
  }

  /**
   * A branch off the default branch (or off `from`, an older commit of it) with `edit`, pushed
   * with its merge into the default branch's head as refs/pull/N/merge (GitHub's test merge) and
   * listed as an open pull request, and run; from `fork`'s repository when given, whose token may
   * not write to this one.
   */
  async pullRequest(
    repo: string,
    number: number,
    branch: string,
    edit: (dir: string) => void,
    o: RunOptions & { fork?: string; from?: string } = {}
  ): Promise<PullRequestRun> {
    gitIn(repo, 'checkout', '-q', '-b', branch, o.from ?? this.master)
    edit(repo)
    const head = commitAll(repo, `${branch}: the change under review`)
    gitIn(repo, 'checkout', '-q', '--detach', this.master)
    const as = ['-c', 'user.name=t', '-c', 'user.email=t@t']
    gitIn(repo, ...as, 'merge', '-q', '--no-ff', branch, '-m', `Merge ${head} into ${this.branch}`)
    const merge = gitIn(repo, 'rev-parse', 'HEAD')
    gitIn(repo, 'push', '-q', this.remote, branch, `${merge}:refs/pull/${number}/merge`)
    gitIn(repo, 'checkout', '-q', this.branch)
    const owner = o.fork ?? 'octo'
    const headRepo = { full_name: `${owner}/repo`, name: 'repo', owner: { login: owner } }
    this.github.pulls.push({
      number,
      head: { sha: head, ref: branch, label: `${owner}:${branch}` }
    })
    const payload = {
      number,
      repository,
      pull_request: {
        number,
        title: `${branch}: the change under review`,
        head: { sha: head, ref: branch, repo: headRepo },
        base: { sha: this.master, ref: this.branch, repo: repository }
      }
    }
    if (o.fork) this.github.readOnly.add(REPOSITORY)
    try {
      const run = await this.runAct('pull_request', payload, `refs/pull/${number}/merge`, merge, o)
      return { ...run, number, branch, head, merge, fork: o.fork }
    } finally {
      this.github.readOnly.delete(REPOSITORY)
    }
  }

  /** A release published from a tag `tag` of the default branch's head. */
  release(repo: string, tag: string, o: RunOptions = {}): Promise<ActRun> {
    gitIn(repo, 'tag', tag, this.master)
    gitIn(repo, 'push', '-q', this.remote, tag)
    const payload = {
      action: 'published',
      repository,
      release: { tag_name: tag, name: tag, draft: false, prerelease: false }
    }
    return this.runAct('release', payload, `refs/tags/${tag}`, this.master, o)
  }

  /** A scheduled run on the default branch. */
  schedule(o: RunOptions = {}): Promise<ActRun> {
    const payload = { schedule: 'scheduled', repository }
    return this.runAct('schedule', payload, `refs/heads/${this.branch}`, this.master, o)
  }

  /** A run by hand on the default branch with `inputs`. */
  dispatch(inputs: Record<string, string>, o: RunOptions = {}): Promise<ActRun> {
    const payload = { inputs, ref: `refs/heads/${this.branch}`, repository }
    const args = Object.entries(inputs).flatMap(([k, v]) => ['--input', `${k}=${v}`])
    return this.runAct('workflow_dispatch', payload, `refs/heads/${this.branch}`, this.master, {
      ...o,
      args
    })
  }

  /** The completion of `pull`'s run, as workflow_run sends it to the default branch's workflows. */
  workflowRun(pull: PullRequestRun, name: string, o: RunOptions = {}): Promise<ActRun> {
    const owner = pull.fork ?? 'octo'
    const payload = {
      action: 'completed',
      repository,
      workflow_run: {
        id: pull.runId,
        name,
        event: 'pull_request',
        status: 'completed',
        conclusion: pull.code === 0 ? 'success' : 'failure',
        head_sha: pull.head,
        head_branch: pull.branch,
        head_repository: { full_name: `${owner}/repo`, name: 'repo', owner: { login: owner } }
      }
    }
    return this.runAct('workflow_run', payload, `refs/heads/${this.branch}`, this.master, o)
  }

  /** act on `event`, in a clone of the remote at `sha` (where act reads GITHUB_SHA). */
  private async runAct(
    event: string,
    payload: object,
    ref: string,
    sha: string,
    o: RunOptions & { args?: string[] }
  ): Promise<ActRun> {
    await forgetBuiltImages(new Docker())
    fs.rmSync(this.provisioned, { recursive: true, force: true })
    const runId = ++this.runs
    const dir = fs.mkdtempSync(path.join(this.root, `${event}-`))
    const work = path.join(dir, 'work')
    execFileSync('git', ['clone', '-q', this.remote, work])
    gitIn(work, 'fetch', '-q', 'origin', ref)
    gitIn(work, 'checkout', '-q', '--detach', sha)
    fs.writeFileSync(path.join(dir, 'event.json'), JSON.stringify(payload))
    const workflow = o.workflow ?? this.workflows[0]
    const standIns = Object.entries(STAND_INS).flatMap(([uses, fixture]) => [
      '--local-repository',
      `${this.server}/${uses}=${path.join(fixtures, fixture)}`
    ])
    return this.spawnAct(dir, work, event, sha, runId, [
      ...['-e', path.join(dir, 'event.json'), '-C', work],
      ...['-W', path.join(work, '.github', 'workflows', workflow)],
      ...['-P', 'ubuntu-latest=-self-hosted', '--action-offline-mode', '--no-skip-checkout'],
      // Actions are fetched from GITHUB_SERVER_URL, so that is the address they are matched by.
      ...['--local-repository', `${this.server}/your-org/gnes-latency-bench@v1=${this.action}`],
      ...standIns,
      ...['--action-cache-path', path.join(dir, 'act'), '--cache-server-addr', '127.0.0.1'],
      ...['--cache-server-path', this.actionsCache],
      ...['--env', `GNES_BENCH_CACHE=${this.provisioned}`],
      ...['-s', 'GITHUB_TOKEN=test-token', '--env', `GITHUB_REF=${ref}`],
      ...['--env', `GITHUB_SERVER_URL=${this.server}`],
      ...['--env', `GITHUB_REPOSITORY=${REPOSITORY}`],
      ...['--env', `GITHUB_API_URL=${this.github.baseUrl}`],
      ...['--env', `GITHUB_RUN_ID=${runId}`],
      // What the stand-ins need of the twin: the artifact store, and github-script's modules.
      ...['--env', `GNES_TWIN_ARTIFACTS=${this.artifacts}`],
      ...['--env', `GNES_TWIN_NODE_MODULES=${path.join(PROJECT, 'node_modules')}`],
      ...(o.args ?? [])
    ])
  }

  /**
   * The log is written as it comes, to follow a run and to read it after a failure; the wall time
   * and load average go to the output (docs/benchmarks.md cites them).
   */
  private spawnAct(
    dir: string,
    work: string,
    event: string,
    sha: string,
    runId: number,
    args: string[]
  ): Promise<ActRun> {
    const logFile = fs.createWriteStream(path.join(dir, 'act.log'))
    const started = Date.now()
    const loadBefore = os.loadavg()
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
        const seconds = Math.round((Date.now() - started) / 1000)
        const loadAfter = os.loadavg()
        console.log(
          `runner twin: ${event} ${sha.slice(0, 7)}: act exit ${code} in ${seconds} s; load average before ${loadText(loadBefore)}, after ${loadText(loadAfter)}; log ${path.join(dir, 'act.log')}`
        )
        logFile.end(() => resolve({ code, log, runId, seconds, loadBefore, loadAfter }))
      })
    })
  }
}
