/**
 * The action end to end, as a runner starts it (INPUT_* and GITHUB_* variables, files for
 * outputs, state and job summary): real GNES on the local engine, real git with a local bare
 * repository standing in for github.com, and a local server speaking GitHub's REST endpoints.
 */
import { execFileSync, spawn } from 'node:child_process'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { readBranchHistory } from '../src/history'
import { commentMarker, markerLine } from '../src/report'
import { startFakeGitHub, type FakeGitHub } from './fixtures/report/github-server'
import { buildEntry } from './helpers/bundle'
import { PLUS_MINUS, re } from './helpers/figures'
import { commandFileValues, pullRequestEvent as pullRequest } from './helpers/workflow'

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' })

interface ActionRun {
  code: number | null
  outputs: Record<string, string>
  summary: string
  log: string
  /** What the main step saved for its post: step. */
  state: Record<string, string>
}

/** The marker of the comment-key a runner gives no default for here: workflow / job. */
const MARKER = commentMarker('Latency (PR) / bench')

describe('the action (local engine, local bare remote, local server speaking GitHub’s REST endpoints)', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'gnes-action-'))
  const remote = path.join(root, 'server', 'octo', 'bench.git')
  let action: string
  let github: FakeGitHub

  beforeAll(async () => {
    action = await buildEntry('main')
    github = await startFakeGitHub()
    fs.mkdirSync(remote, { recursive: true })
    git(remote, 'init', '-q', '--bare')
  })
  afterAll(() => github.close())

  async function runAction(
    event: string,
    payload: object,
    sha: string,
    extra: NodeJS.ProcessEnv = {}
  ): Promise<ActionRun> {
    const dir = fs.mkdtempSync(path.join(root, 'run-'))
    const files = Object.fromEntries(
      ['event.json', 'output', 'state', 'summary'].map(f => [f, path.join(dir, f)])
    )
    fs.writeFileSync(files['event.json'], JSON.stringify(payload))
    for (const f of ['output', 'state', 'summary']) fs.writeFileSync(files[f], '')
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      GITHUB_ACTIONS: 'true',
      GITHUB_EVENT_NAME: event,
      GITHUB_EVENT_PATH: files['event.json'],
      GITHUB_REPOSITORY: 'octo/bench',
      GITHUB_SERVER_URL: `file://${path.join(root, 'server')}`,
      GITHUB_API_URL: github.baseUrl,
      GITHUB_SHA: sha,
      GITHUB_REF: event === 'push' ? 'refs/heads/main' : 'refs/pull/7/merge',
      GITHUB_RUN_ID: '42',
      GITHUB_WORKFLOW: 'Latency (PR)',
      GITHUB_JOB: 'bench',
      GITHUB_OUTPUT: files.output,
      GITHUB_STATE: files.state,
      GITHUB_STEP_SUMMARY: files.summary,
      INPUT_CASES: '1',
      INPUT_DOCS: '30',
      INPUT_RUNS: '2',
      'INPUT_MAX-PAIRS': '2',
      INPUT_REQUESTS: '4',
      'INPUT_WARMUP-REQUESTS': '2',
      INPUT_ENGINE: 'local',
      'INPUT_OUT-DIR': path.join(dir, 'out'),
      'INPUT_GITHUB-TOKEN': 'test-token',
      'INPUT_ALERT-THRESHOLD': '10%',
      ...extra
    }
    const child = spawn(process.execPath, [action], { env, stdio: ['ignore', 'pipe', 'pipe'] })
    let log = ''
    child.stdout.on('data', d => (log += d))
    child.stderr.on('data', d => (log += d))
    const code = await new Promise<number | null>(r => child.on('exit', r))
    return {
      code,
      outputs: commandFileValues(fs.readFileSync(files.output, 'utf8')),
      summary: fs.readFileSync(files.summary, 'utf8'),
      log,
      state: commandFileValues(fs.readFileSync(files.state, 'utf8'))
    }
  }

  it('on push: records the entry and the re-rendered report on gh-pages in one commit', async () => {
    const sha = 'a'.repeat(40)
    const run = await runAction(
      'push',
      { head_commit: { message: '<script>alert(1)</script> speed-up' } },
      sha
    )
    expect(run.log).not.toContain('::error::')
    expect(run.code).toBe(0)
    expect(JSON.parse(fs.readFileSync(run.outputs.result, 'utf8')).cases[0].id).toBe('1')
    expect(run.outputs).toMatchObject({ engine: 'local', regression: 'false' })
    // The post: step learns which engine ran and that none of its process groups is left; no
    // Docker run id after a local run.
    expect(run.state).toEqual({ engine: 'local', 'local-processes': '[]' })
    expect(run.summary).toContain('roundtrip')
    expect(run.summary).toContain('### minimal load (paced, 5 req/s)')

    // The default profiles: latency at minimal load, and the legacy burst.
    const history = await readBranchHistory({ repo: remote, branch: 'gh-pages', dir: 'benchmarks' })
    expect(history.map(e => [e.profile.kind, e.headline]).sort()).toEqual([
      ['burst', 'roundtrip'],
      ['minimal', 'latency']
    ])
    for (const e of history) {
      expect(e).toMatchObject({
        caseId: '1',
        origin: 'bench',
        commit: { sha, event: 'push', ref: 'refs/heads/main' }
      })
    }
    const files = git(remote, 'ls-tree', '-r', '--name-only', 'gh-pages')
    expect(files).toMatch(/^benchmarks\/README\.md$/m)
    expect(files).toMatch(/^benchmarks\/index\.html$/m)
    expect(files).toMatch(/^benchmarks\/charts\/case-1-roundtrip\.svg$/m)
    expect(files).toMatch(/^benchmarks\/charts\/case-1-minimal-5-latency\.svg$/m)
    expect(git(remote, 'rev-list', '--count', 'gh-pages').trim()).toBe('1')
  })

  it('on pull_request: compares with the base, comments once and updates that comment, records nothing', async () => {
    const tip = git(remote, 'rev-parse', 'gh-pages')
    const payload = pullRequest(7, 'try', 'a'.repeat(40), 'b'.repeat(40))
    const first = await runAction('pull_request', payload, 'c'.repeat(40))
    expect(first.code).toBe(0)
    expect(['true', 'false']).toContain(first.outputs.regression)
    const report = fs.readFileSync(first.outputs.report, 'utf8')
    // The marker line names the pull request's head the verdict is about.
    expect(report.split('\n')[0]).toBe(`${MARKER}<!-- head: ${'b'.repeat(40)} -->`)
    const comments = github.comments.get(7) ?? []
    expect(comments).toHaveLength(1)
    expect(comments[0].body).toBe(report)
    expect(first.summary).toContain(MARKER)

    const second = await runAction('pull_request', payload, 'c'.repeat(40))
    expect(second.code).toBe(0)
    expect(github.comments.get(7)).toHaveLength(1)
    // The second run updates the comment and the check run in place.
    expect(github.log.filter(l => l.startsWith('PATCH'))).toEqual([
      'PATCH /repos/octo/bench/issues/comments/1000',
      expect.stringMatching(/^PATCH \/repos\/octo\/bench\/check-runs\/\d+$/)
    ])
    expect(git(remote, 'rev-parse', 'gh-pages')).toBe(tip)
  })

  it('on pull_request in paired mode: measures the base beside the head, keeps a comment of its own beside the other workflow’s, records nothing', async () => {
    const tip = git(remote, 'rev-parse', 'gh-pages')
    const payload = pullRequest(7, 'GNES 0.0.47', 'a'.repeat(40), 'd'.repeat(40))
    const history = (github.comments.get(7) ?? []).map(c => ({ ...c }))
    expect(history).toHaveLength(1)
    const run = await runAction('pull_request', payload, 'd'.repeat(40), {
      GITHUB_WORKFLOW: 'Latency (PR, paired)',
      INPUT_BASELINE: 'paired',
      'INPUT_BASELINE-GNES-VERSION': '0.0.46',
      INPUT_PROFILES: 'minimal',
      'INPUT_DOC-BYTES': '1000'
    })
    expect(run.log).not.toContain('::error::')
    expect(run.code).toBe(0)
    expect(['true', 'false']).toContain(run.outputs.regression)
    // The history-mode workflow's comment on the same pull request is left as it was.
    const comments = github.comments.get(7) ?? []
    expect(comments).toHaveLength(2)
    expect(comments[0]).toEqual(history[0])
    const body = comments[1].body
    expect(body.split('\n')[0]).toBe(markerLine('Latency (PR, paired) / bench', 'd'.repeat(40)))
    expect(body).toContain('### GNES latency, paired on this runner')
    expect(body).toContain('**head** GNES 0.0.47 vs **base** GNES 0.0.46')
    expect(body).toContain(
      'pairs of runs, both sides at once with their requests alternating, the side half a period ahead alternating pair by pair (`ABBA'
    )
    expect(body).toContain(
      'Each pair’s ratio of run figures (20 %-trimmed mean requests), head ÷ base'
    )
    expect(fs.readFileSync(run.outputs.report, 'utf8')).toBe(body)
    expect(run.summary).toContain('## GNES latency benchmark')
    expect(run.summary).toContain('paired on this runner')
    // The history is neither read nor written; the base's result is kept beside the head's.
    expect(run.log).not.toContain('Read the history')
    expect(git(remote, 'rev-parse', 'gh-pages')).toBe(tip)
    const base = path.join(path.dirname(run.outputs.result), 'base', 'result.json')
    expect(JSON.parse(fs.readFileSync(base, 'utf8')).meta.gnes.version).toBe('0.0.46')
    expect(JSON.parse(fs.readFileSync(run.outputs.result, 'utf8')).meta.gnes.version).toBe('0.0.47')
  })

  it('on pull_request, a run that cannot tell: inconclusive in the comment and outputs, and on-inconclusive: fail fails the step', async () => {
    // Identical sides, a 1 % threshold, and a budget that stops the case at its first look (2
    // pairs) of up to 100: its interval, at the level of 11 looks (α′ ≈ 0.006) with one degree of
    // freedom, is far wider than ±1 %, so the run cannot show "no change"; a false change has
    // α′ of chance, so this test fails about once in 150 runs. Runs of 10 requests: what is
    // tested is the answer's path, not the size of a run.
    const payload = pullRequest(9, 'unknown', 'a'.repeat(40), 'e'.repeat(40))
    const inputs = {
      INPUT_BASELINE: 'paired',
      'INPUT_BASELINE-GNES-VERSION': '0.0.47',
      INPUT_PROFILES: 'minimal',
      INPUT_REQUESTS: '10',
      'INPUT_DOC-BYTES': '1000',
      'INPUT_ALERT-THRESHOLD': '1%',
      'INPUT_FAIL-ON-REGRESSION': 'true',
      'INPUT_MAX-PAIRS': '100',
      'INPUT_PAIRS-BUDGET-MINUTES': '0.01'
    }
    const warned = await runAction('pull_request', payload, 'e'.repeat(40), inputs)
    expect(warned.code).toBe(0)
    expect(warned.outputs).toMatchObject({ regression: 'false', verdict: 'inconclusive' })
    expect(JSON.parse(warned.outputs.verdicts)).toEqual([
      { case: '1', profile: 'minimal@5', metric: 'path', verdict: 'inconclusive' }
    ])
    expect(warned.log).toMatch(
      /::warning::this run cannot tell whether latency changed in case 1 \(minimal@5\)/
    )
    const body = (github.comments.get(9) ?? [])[0].body
    expect(body).toContain('### GNES latency, paired on this runner: 🟡 inconclusive in 1 case')
    expect(body).toMatch(
      re`so these 2 pairs cannot tell a change from none\. They would find a change of ${PLUS_MINUS} with 80 % power`
    )
    expect(body).toContain('stopped by the time budget (its share of paired-budget-minutes)')
    // Only the verdict metric is asserted: a hop's own interval can, now and then, fall within
    // ±1 % by chance even at 2 pairs (equivalence is a 95 % statement per row).
    const pathRow = body.split('\n').find(l => l.includes('| `path` |'))
    expect(pathRow).toContain('🟡 inconclusive')

    const failed = await runAction('pull_request', payload, 'e'.repeat(40), {
      ...inputs,
      'INPUT_ON-INCONCLUSIVE': 'fail'
    })
    expect(failed.code).toBe(1)
    expect(failed.outputs.verdict).toBe('inconclusive')
    expect(failed.log).toMatch(/::error::this run cannot tell .* \(on-inconclusive is fail\)/)
    expect(github.comments.get(9)).toHaveLength(1)
  })

  it('with auto-push false: commits on the workspace’s gh-pages on top of the published one, pushes nothing', async () => {
    const tip = git(remote, 'rev-parse', 'gh-pages').trim()
    const workspace = path.join(root, 'workspace')
    git(root, 'init', '-q', workspace)
    const run = await runAction('push', {}, 'e'.repeat(40), {
      'INPUT_AUTO-PUSH': 'false',
      GITHUB_WORKSPACE: workspace
    })
    expect(run.code).toBe(0)
    expect(git(remote, 'rev-parse', 'gh-pages').trim()).toBe(tip)
    expect(git(workspace, 'rev-parse', 'gh-pages~1').trim()).toBe(tip)
    const local = await readBranchHistory({
      repo: workspace,
      branch: 'gh-pages',
      dir: 'benchmarks'
    })
    const shas = (entries: { commit: { sha: string | null } }[]) => [
      ...new Set(entries.map(e => e.commit.sha))
    ]
    expect(shas(local)).toEqual(['a'.repeat(40), 'e'.repeat(40)])

    // A second unpushed step of the same job builds on the first, not on the published branch.
    const again = await runAction('push', {}, 'f'.repeat(40), {
      'INPUT_AUTO-PUSH': 'false',
      GITHUB_WORKSPACE: workspace
    })
    expect(again.log).not.toContain('::error::')
    expect(again.code).toBe(0)
    expect(git(workspace, 'rev-parse', 'gh-pages~2').trim()).toBe(tip)
    const both = await readBranchHistory({ repo: workspace, branch: 'gh-pages', dir: 'benchmarks' })
    expect(shas(both)).toEqual(['a', 'e', 'f'].map(c => c.repeat(40)))
    expect(both).toHaveLength(6)
  })

  it('on push in paired mode: records the head’s entry with its change against the base, the base nowhere', async () => {
    const sha = '9'.repeat(40)
    const run = await runAction('push', {}, sha, {
      INPUT_BASELINE: 'paired',
      'INPUT_BASELINE-GNES-VERSION': '0.0.46',
      INPUT_PROFILES: 'minimal',
      'INPUT_DOC-BYTES': '1000',
      INPUT_RUNS: '2',
      'INPUT_MAX-PAIRS': '2'
    })
    expect(run.log).not.toContain('::error::')
    expect(run.code).toBe(0)
    const history = await readBranchHistory({ repo: remote, branch: 'gh-pages', dir: 'benchmarks' })
    const recorded = history.filter(e => e.commit.sha === sha)
    expect(recorded).toHaveLength(1)
    const [entry] = recorded
    expect(entry.gnes?.version).toBe('0.0.47')
    expect(entry.paired).toMatchObject({ base: 'GNES 0.0.46 · topology case1.yml', pairs: 2 })
    expect(Object.keys(entry.paired!.change)).toEqual(expect.arrayContaining(['latency', 'path']))
    const { change, ci } = entry.paired!.change.path
    expect(ci[0]).toBeLessThanOrEqual(change)
    expect(ci[1]).toBeGreaterThanOrEqual(change)
    // Nothing of 0.0.46 became an entry.
    expect(history.filter(e => e.gnes?.version === '0.0.46')).toEqual([])
  })

  it('stops on a bad input with an error naming it, before starting anything', async () => {
    const child = spawn(process.execPath, [action], {
      env: {
        ...process.env,
        INPUT_DOCS: 'lots',
        GITHUB_OUTPUT: path.join(root, 'o'),
        GITHUB_STATE: path.join(root, 's')
      },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let out = ''
    child.stdout.on('data', d => (out += d))
    const code = await new Promise<number | null>(r => child.on('exit', r))
    expect(code).toBe(1)
    expect(out).toContain(
      "::error::Invalid input:%0A  input 'docs' = 'lots': docs must be a whole number"
    )
  })
  describe('with a generic topology (a chain of 5 HTTP relays on the local engine)', () => {
    const chain = path.join(__dirname, '..', 'topologies', 'examples', 'http', 'chain5.yml')
    const generic = { INPUT_TOPOLOGY: chain, INPUT_CASES: '' }

    it('on push: records its entries beside the GNES ones, with its own README section and charts; counts the thresholds it broke', async () => {
      const sha = '1'.repeat(40)
      // Two break, one on each profile's time (no request takes 1 µs); one holds; `latency` is
      // no burst's figure and `roundtrip` no paced run's: absent there, not broken.
      const thresholds = "{latency: ['max<1us', 'max<60s'], roundtrip: ['min<1us']}"
      const run = await runAction('push', { head_commit: { message: 'relays' } }, sha, {
        ...generic,
        INPUT_THRESHOLDS: thresholds
      })
      expect(run.log).not.toContain('::error::')
      // Shown, not a failure: fail-on-threshold is off.
      expect(run.code).toBe(0)
      expect(run.outputs['thresholds-broken']).toBe('2')
      expect(run.summary).toContain('❌ 2 of 3 thresholds broken on the head.')
      expect(run.summary).toMatch(/^## Latency benchmark/m)
      expect(run.summary).not.toContain('GNES')
      const history = await readBranchHistory({
        repo: remote,
        branch: 'gh-pages',
        dir: 'benchmarks'
      })
      const chainEntries = history.filter(e => e.caseId === 'chain5')
      expect(
        chainEntries.map(e => [e.profile.kind, e.headline, e.gnes, e.commit.sha]).sort()
      ).toEqual([
        ['burst', 'roundtrip', null, sha],
        ['minimal', 'latency', null, sha]
      ])
      expect(chainEntries[0].metrics.filter(m => m.startsWith('hop:'))).toHaveLength(5)
      expect(history.some(e => e.caseId === '1')).toBe(true)
      const readme = git(remote, 'show', 'gh-pages:benchmarks/README.md')
      expect(readme).toContain('## Case chain5: chain of 5 relays')
      const files = git(remote, 'ls-tree', '-r', '--name-only', 'gh-pages')
      expect(files).toMatch(/^benchmarks\/charts\/case-chain5-minimal-20-latency\.svg$/m)
    })

    it('on pull_request: one comment with its verdict against the recorded entry, nothing recorded', async () => {
      const tip = git(remote, 'rev-parse', 'gh-pages')
      const payload = pullRequest(9, 'faster relays', '1'.repeat(40), '2'.repeat(40))
      // An earlier run commented on #9 at another head: this run's head is the pull request's now.
      github.pulls.push({
        number: 9,
        head: { sha: '2'.repeat(40), ref: 'relays', label: 'octo:relays' }
      })
      const run = await runAction('pull_request', payload, '3'.repeat(40), {
        ...generic,
        INPUT_THRESHOLDS: "{latency: ['max<60s'], roundtrip: ['max<60s']}"
      })
      expect(run.log).not.toContain('::error::')
      expect(run.code).toBe(0)
      // Its thresholds hold: none broken.
      expect(run.outputs['thresholds-broken']).toBe('0')
      const comments = github.comments.get(9) ?? []
      expect(comments).toHaveLength(1)
      const body = comments[0].body
      const [first, check, title] = body.split('\n')
      expect(first).toBe(markerLine('Latency (PR) / bench', '2'.repeat(40)))
      // The check run's hidden line, which a fork's workflow_run reads.
      expect(check).toMatch(/^<!-- check: (success|neutral|failure); [^<>]+ -->$/)
      expect(title).toMatch(/^### Latency: /)
      expect(body).toContain('chain5 chain of 5 relays · minimal@\u206020')
      expect(body).toContain('`latency`')
      expect(body).toContain('base commit of the PR')
      expect(body).not.toContain('GNES')
      expect(git(remote, 'rev-parse', 'gh-pages')).toBe(tip)
    })
    it('on pull_request in paired mode with no base named: measures the merge-base’s checkout beside the head', async () => {
      // A repository of the user's own: a chain whose relay3 gets 20 ms of work in the pull request.
      const repo = fs.mkdtempSync(path.join(root, 'workspace-'))
      const relay = path.join(__dirname, '..', 'examples', 'services', 'relay')
      fs.mkdirSync(path.join(repo, 'services', 'relay'), { recursive: true })
      for (const f of ['relay.py', 'Dockerfile'])
        fs.copyFileSync(path.join(relay, f), path.join(repo, 'services', 'relay', f))
      fs.mkdirSync(path.join(repo, 'bench'))
      const file = path.join(repo, 'bench', 'chain.yml')
      fs.writeFileSync(
        file,
        fs
          .readFileSync(chain, 'utf8')
          .replace(/\.\.\/\.\.\/\.\.\/examples\/services\/relay/g, '../services/relay')
      )
      git(repo, 'init', '-q', '-b', 'main')
      git(repo, 'add', '.')
      git(repo, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'chain')
      const baseSha = git(repo, 'rev-parse', 'HEAD').trim()
      const slower = fs
        .readFileSync(file, 'utf8')
        .replace('{ HOP: relay3,', "{ WORK_MS: '20', HOP: relay3,")
      expect(slower).toContain("WORK_MS: '20'")
      fs.writeFileSync(file, slower)
      git(repo, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-am', 'slower relay3')
      const headSha = git(repo, 'rev-parse', 'HEAD').trim()
      const tip = git(remote, 'rev-parse', 'gh-pages')
      const payload = pullRequest(10, 'work', baseSha, headSha)
      const run = await runAction('pull_request', payload, headSha, {
        INPUT_TOPOLOGY: file,
        INPUT_CASES: '',
        INPUT_BASELINE: 'paired',
        GITHUB_WORKSPACE: repo,
        RUNNER_TEMP: fs.mkdtempSync(path.join(root, 'runner-temp-'))
      })
      expect(run.log).not.toContain('::error::')
      expect(run.code).toBe(0)
      expect(run.log).toContain(
        `the workspace is the pull request's head ${headSha}; the base is its merge-base with main, ${baseSha}`
      )
      const body = (github.comments.get(10) ?? [])[0].body
      expect(body.startsWith(`${MARKER}<!-- head: ${headSha} -->\n<!-- check: `)).toBe(true)
      expect(body.split('\n')[2]).toMatch(/^### Latency, paired on this runner: /)
      expect(body).toContain(
        `**head** commit \`${headSha.slice(0, 7)}\` vs **base** commit \`${baseSha.slice(0, 7)}\``
      )
      expect(body).toContain(
        `Compared: the pull request's head \`${headSha.slice(0, 7)}\`, checked out itself, against \`${baseSha.slice(0, 7)}\`, its merge-base with \`main\``
      )
      expect(body).not.toContain('runner-temp')
      // The base ran the merge-base's relay3, without the 20 ms; the head ran the pull request's.
      const base = JSON.parse(
        fs.readFileSync(path.join(run.outputs.result, '..', 'base', 'result.json'), 'utf8')
      )
      const head = JSON.parse(fs.readFileSync(run.outputs.result, 'utf8'))
      expect(base.meta.git.sha).toBe(baseSha)
      expect(head.cases[0].best['hop:relay3']).toBeGreaterThan(0.015)
      expect(base.cases[0].best['hop:relay3']).toBeLessThan(0.005)
      expect(git(repo, 'worktree', 'list').trim().split('\n')).toHaveLength(1)
      expect(git(remote, 'rev-parse', 'gh-pages')).toBe(tip)
    })
  })
})
