import { execFileSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { getOctokit } from '@actions/github'
import { parse } from 'yaml'
import { DEFAULTS, parseInputs } from '../src/config/inputs'
import { checkInputs } from '../src/config/preflight'
import { checkRun } from '../src/pipeline/preflight'
import { bisectCommand } from '../src/commands/bisect'
import { commentMarker, markerLine, markReport, REPORT_MARKER } from '../src/report'
import { checkLine, checkName } from '../src/report/check-text'
import type { CheckConclusion } from '../src/judge/check'
import { loadTopologyFile } from '../src/topology/load'
import { startFakeGitHub } from './fixtures/report/github-server'
import { quickStartWorkflow } from './helpers/readme'
import { expand as expandIn, stepRuns, type Context } from './helpers/expression'
import { tmp } from './helpers/tmp'
import { SUPPORTED_GNES_VERSIONS } from '../src/config/gnes-version'

const dir = path.join(__dirname, '..', 'workflows')
const files = fs.readdirSync(dir).filter(f => f.endsWith('.yml'))

interface Step {
  uses?: string
  if?: string
  with?: Record<string, string>
}
interface Workflow {
  name: string
  on: Record<string, unknown>
  concurrency?: { group: string; 'cancel-in-progress': boolean | string }
  jobs: Record<string, { steps: Step[] }>
}
const steps = (wf: { jobs: Record<string, { steps: Step[] }> }): Step[] =>
  Object.values(wf.jobs).flatMap(j => j.steps)
const read = (file: string) => parse(fs.readFileSync(path.join(dir, file), 'utf8'))
/** The examples that judge pull requests: each uploads its report for pr-comment-fork.yml. */
const PULL_REQUEST_WORKFLOWS = files.filter(f => Object.keys(read(f).on).includes('pull_request'))
/** The `github` context of a run of pull request #7 from a fork. */
const FORK_PULL_REQUEST = {
  event_name: 'pull_request',
  repository: 'octo/bench',
  run_id: 901,
  event: {
    pull_request: { number: 7, head: { repo: { full_name: 'forker/bench', fork: true } } }
  }
}
/** README's Quick start, which judges pull requests too. */
const QUICK_START = parse(quickStartWorkflow())
/** Every workflow a reader copies that judges pull requests, by where it is. */
const JUDGES: [string, Workflow][] = [
  ...PULL_REQUEST_WORKFLOWS.map((f): [string, Workflow] => [f, read(f)]),
  ['the Quick start', QUICK_START]
]
/** The workflow that posts fork reports runs no benchmark; every other one but the bisect runs the action. */
const FORK_COMMENT = 'pr-comment-fork.yml'
/** The bisect runs the action's command line from its repository at the same major tag. */
const BISECT = 'bisect.yml'

describe('example workflows', () => {
  test('record on push, on release, on schedule; compare on pull_request; comment via workflow_run', () => {
    const triggers = files.map(f =>
      Object.keys(parse(fs.readFileSync(path.join(dir, f), 'utf8')).on)
    )
    expect(triggers.flat()).toEqual(
      expect.arrayContaining(['push', 'release', 'schedule', 'pull_request', 'workflow_run'])
    )
  })

  test.each(files.filter(f => f !== FORK_COMMENT && f !== BISECT))(
    '%s runs the action with only inputs it has',
    file => {
      const uses = steps(read(file)).filter(s => s.uses?.startsWith('your-org/gnes-latency-bench'))
      expect(uses.length).toBeGreaterThan(0)
      for (const step of uses) {
        expect(step.uses).toBe('your-org/gnes-latency-bench@v1')
        for (const key of Object.keys(step.with ?? {})) expect(Object.keys(DEFAULTS)).toContain(key)
      }
    }
  )

  test(`${FORK_COMMENT} posts the artifacts every pull-request workflow uploads, checked as our reports`, () => {
    expect(PULL_REQUEST_WORKFLOWS.sort()).toEqual([
      'pr-compare.yml',
      'pr-paired-services.yml',
      'pr-paired.yml'
    ])
    const wf = read(FORK_COMMENT)
    const all = steps(wf)
    // It runs in the base repository with a write token: it must never check out the PR's code.
    expect(all.some(s => s.uses?.startsWith('actions/checkout'))).toBe(false)
    expect([...wf.on.workflow_run.workflows].sort()).toEqual(
      JUDGES.map(([, judge]) => judge.name).sort()
    )
    expect(QUICK_START.name).toBe('Latency')
    expect(wf.permissions).toEqual({
      actions: 'read',
      'pull-requests': 'write',
      checks: 'write'
    })
    // Every report artifact of the run, each into a folder of its name (no `name:` to fail on).
    const download = all.find(s => s.uses?.startsWith('actions/download-artifact'))!
    expect(download.with).toMatchObject({ pattern: 'gnes-latency-report*', path: 'report' })
    expect(download.with?.name).toBeUndefined()
    for (const [, judge] of JUDGES) {
      const upload = steps(judge).find(s => s.uses?.startsWith('actions/upload-artifact'))
      expect(upload?.with?.name?.startsWith('gnes-latency-report')).toBe(true)
    }
  })

  test(`${FORK_COMMENT} takes exactly the first lines this action writes`, () => {
    const first = forkReportLine()
    const keys = [
      'Latency (PR) / bench',
      'Latency (PR) / bench / {\n  "case": "1"\n}',
      'a --> <img src=x> <!-- b',
      `ü ${'x'.repeat(400)}`
    ]
    const sha = 'a'.repeat(40)
    for (const key of keys) {
      expect(first.test(commentMarker(key))).toBe(true)
      // With the head it reports, the key's marker is the part that names the comment.
      expect(first.exec(markerLine(key, sha))?.slice(1)).toEqual([commentMarker(key), sha])
    }
    expect(first.test(REPORT_MARKER)).toBe(true)
    for (const line of [
      '',
      '### GNES latency',
      `${REPORT_MARKER} `,
      `${REPORT_MARKER}<!-- comment-key: a --> <img src=x> -->`,
      `${REPORT_MARKER}<!-- comment-key:  -->`,
      `${REPORT_MARKER}<!-- comment-key: ${'x'.repeat(161)} -->`,
      '<!-- gnes-latency-bench: latency alert, main -->',
      `${commentMarker(keys[0])}<!-- head: ${sha} --> `,
      `${commentMarker(keys[0])}<!-- head: ${sha.slice(1)} -->`,
      `${commentMarker(keys[0])}<!-- head: ${sha.toUpperCase()} -->`,
      `${commentMarker(keys[0])}<!-- head: ${sha} --><!-- head: ${sha} -->`
    ])
      expect(first.test(line)).toBe(false)
  })
})

describe("the Quick start's runs", () => {
  /** The `github` context of a run: a push to master, or a pull request from this repository or a fork. */
  const push = (runId: number): Context => ({
    github: { event_name: 'push', repository: 'octo/bench', run_id: runId, event: {} }
  })
  const pullRequest = (number: number, runId: number, from = 'octo/bench'): Context => ({
    github: {
      ...FORK_PULL_REQUEST,
      run_id: runId,
      event: { pull_request: { number, head: { repo: { full_name: from } } } }
    }
  })
  const group = (context: Context) => expandIn(QUICK_START.concurrency!.group, context)

  test('a new push to a pull request cancels its run in progress; no push to master is cancelled or held back', () => {
    expect(QUICK_START.concurrency!['cancel-in-progress']).toBe(true)
    // Runs share a group only when they measure the same pull request.
    expect(group(pullRequest(7, 1))).toBe(group(pullRequest(7, 2)))
    expect(group(pullRequest(7, 1))).not.toBe(group(pullRequest(8, 1)))
    const pushes = [101, 102, 103].map(id => group(push(id)))
    expect(new Set(pushes).size).toBe(3)
    for (const g of pushes) expect(g).not.toBe(group(pullRequest(7, 1)))
  })

  test("only a fork's pull request uploads the report, for pr-comment-fork.yml", () => {
    const upload = steps(QUICK_START).find(s => s.uses?.startsWith('actions/upload-artifact'))!
    const withReport = (c: Context) => ({
      ...c,
      steps: { bench: { outputs: { report: 'out/report.md' } } }
    })
    expect(stepRuns(upload.if, withReport(pullRequest(7, 1, 'forker/bench')))).toBe(true)
    expect(stepRuns(upload.if, withReport(pullRequest(7, 1)))).toBe(false)
    expect(stepRuns(upload.if, withReport(push(1)))).toBe(false)
    // A run that failed before writing its report has nothing to upload.
    expect(stepRuns(upload.if, pullRequest(7, 1, 'forker/bench'))).toBe(false)
  })
})

test('record-gnes-release.yml records a PyPI release by hand: the four standard cases at the standard load, nothing checked out', () => {
  const wf = read('record-gnes-release.yml')
  expect(Object.keys(wf.on)).toEqual(['workflow_dispatch'])
  const version = wf.on.workflow_dispatch.inputs['gnes-version']
  expect(version.options).toEqual([...SUPPORTED_GNES_VERSIONS].reverse())
  expect(wf.concurrency).toBeUndefined()
  const all = steps(wf)
  expect(all.some(s => s.uses?.startsWith('actions/checkout'))).toBe(false)
  const bench = all.find(s => s.uses?.startsWith('your-org/gnes-latency-bench'))!
  for (const chosen of version.options as string[]) {
    const given = Object.fromEntries(
      Object.entries(bench.with ?? {}).map(([k, v]) => [
        k,
        expandIn(v, { inputs: { 'gnes-version': chosen } })
      ])
    )
    const inputs = parseInputs(given)
    expect(inputs).toMatchObject({
      'gnes-version': chosen,
      'gnes-source': null,
      baseline: 'history',
      docs: 500,
      'batch-size': 10,
      'doc-bytes': 1_000_000
    })
    expect(inputs.cases).toEqual(['1', '2', '3', '4'])
    expect(inputs.profiles).toEqual(['minimal', 'burst'])
    expect(() => checkInputs(inputs)).not.toThrow()
  }
  // README's section for those who record releases only points to it.
  const readme = fs.readFileSync(path.join(__dirname, '..', 'README.md'), 'utf8')
  const section = readme.slice(
    readme.indexOf('### Only GNES releases'),
    readme.indexOf('## What you get')
  )
  expect(section).toContain('[`record-gnes-release.yml`](workflows/record-gnes-release.yml)')
})

/** The script's test of a report's first line, as pr-comment-fork.yml writes it. */
function forkReportLine(): RegExp {
  const script = forkScript()
  const literal = /const first = \/(.+)\/\n/.exec(script)
  expect(literal).not.toBeNull()
  return new RegExp(literal![1])
}

const forkScript = (): string =>
  steps(read(FORK_COMMENT)).find(s => s.uses?.startsWith('actions/github-script'))!.with!.script

test(`${BISECT} runs the bisect command of the action's repository at v1, with flags it has`, () => {
  const wf = read(BISECT)
  expect(Object.keys(wf.on)).toEqual(['workflow_dispatch'])
  const all = Object.values(wf.jobs as Record<string, { steps: (Step & { run?: string })[] }>)[0]
    .steps
  expect(all.find(s => s.with?.repository)?.with).toMatchObject({
    repository: 'your-org/gnes-latency-bench',
    ref: 'v1',
    path: '.gnes-latency-bench'
  })
  const run = all.find(s => s.run?.includes('bisect'))!.run!
  expect(run).toContain('node .gnes-latency-bench/dist/cli.js bisect ')
  const flags = [...run.matchAll(/--([a-z-]+)/g)].map(m => m[1])
  expect(flags.length).toBeGreaterThan(5)
  for (const flag of flags) expect(Object.keys(bisectCommand.options)).toContain(flag)
})

test('pr-paired-services.yml leaves the base to the action: the merge-base of the pull request', () => {
  const wf = read('pr-paired-services.yml')
  expect(Object.keys(wf.on)).toEqual(['pull_request'])
  const all = steps(wf)
  expect(all[0]).toMatchObject({ uses: 'actions/checkout@v4', with: { 'fetch-depth': 0 } })
  const bench = all.find(s => s.uses?.startsWith('your-org/gnes-latency-bench'))!
  const inputs = parseInputs(bench.with ?? {})
  expect(inputs).toMatchObject({
    baseline: 'paired',
    engine: 'docker',
    runs: 6,
    'baseline-ref': null
  })
  // What the action sets from the pull request before its pre-flight passes the pre-flight's
  // input checks (the topology file itself lives in the user's repository).
  expect(() => checkInputs({ ...inputs, 'baseline-ref': 'a'.repeat(40) })).not.toThrow()
})

test('pr-paired.yml leaves the base to the action and builds both sides of a GNES checkout from source', () => {
  const wf = read('pr-paired.yml')
  expect(Object.keys(wf.on)).toEqual(['pull_request'])
  const all = steps(wf)
  expect(all[0]).toMatchObject({ uses: 'actions/checkout@v4', with: { 'fetch-depth': 0 } })
  const bench = all.find(s => s.uses?.startsWith('your-org/gnes-latency-bench'))!
  const inputs = parseInputs(bench.with ?? {})
  // runs: auto gives the paired test its 6 pairs.
  expect(inputs).toMatchObject({
    baseline: 'paired',
    profiles: ['minimal'],
    runs: 6,
    'gnes-source': '.',
    'baseline-ref': null
  })
  expect(inputs['alert-threshold']).toBeCloseTo(0.025)
  // What the action sets from the pull request (the merge-base) passes the pre-flight in a GNES
  // checkout (here: a folder with a setup.py as the workspace).
  const checkout = tmp('gnes-checkout-')
  fs.writeFileSync(path.join(checkout, 'setup.py'), '')
  const fromPr = { ...inputs, 'gnes-source': checkout, 'baseline-ref': 'a'.repeat(40) }
  expect(() => checkInputs(fromPr)).not.toThrow()
  expect(checkRun(fromPr).map(s => s.topology.id)).toEqual(['1', '3'])
})

/**
 * A YAML snippet's text that builds GNES on the host: the local engine. (A source tree on a
 * hosted runner's Docker is built in an image, on the image's Python.)
 */
const buildsOnHost = (text: string): boolean => /engine: ['"]?local\b|--engine local\b/m.test(text)

/** Where Python 3.11 is set up in a snippet's text, or -1. */
const pinnedAt = (text: string): number => {
  const m = /uses: actions\/setup-python@v\d+\s*\n?\s*with:\s*\{?\s*python-version: '3\.11'/.exec(
    text
  )
  return m ? m.index : -1
}

describe('every example that builds GNES on the host pins Python 3.11, the one verified', () => {
  const docs = path.join(__dirname, '..', 'docs')
  const snippets = [
    ...files.map(f => [`workflows/${f}`, fs.readFileSync(path.join(dir, f), 'utf8')]),
    ...[
      path.join(__dirname, '..', 'README.md'),
      ...fs.readdirSync(docs).map(f => path.join(docs, f))
    ]
      .filter(f => f.endsWith('.md'))
      .flatMap(f =>
        [...fs.readFileSync(f, 'utf8').matchAll(/```ya?ml\n([\s\S]*?)```/g)]
          .map(m => m[1])
          .filter(t => /uses: |runs-on:/.test(t))
          .map((t, i) => [`${path.basename(f)} snippet ${i + 1}`, t])
      )
  ].filter(([, text]) => buildsOnHost(text))

  test('there are such examples: bisect.yml', () => {
    expect(snippets.map(([name]) => name)).toEqual(expect.arrayContaining(['workflows/bisect.yml']))
  })

  test.each(snippets)('%s sets up Python 3.11 before GNES is built', (_, text) => {
    const at = pinnedAt(text)
    expect(at).toBeGreaterThanOrEqual(0)
    const build = text.search(/your-org\/gnes-latency-bench@v1|dist\/cli\.js/)
    expect(build).toBeGreaterThan(at)
  })
})

test('the regression benchmark topologies load and differ only in the sleep', () => {
  const load = (ms: number) =>
    loadTopologyFile(path.join(__dirname, '..', 'topologies', 'examples', `blocking-${ms}ms.yml`))
  const [a, b] = [load(100), load(105)]
  expect(a.id).toBe(b.id)
  expect(a.services.map(s => ('model' in s ? s.model : s.name))).toEqual([
    'Frontend',
    '!BlockRouter {parameters: {sleep_sec: 0.100}}'
  ])
  expect(b.services[1]).toMatchObject({ model: '!BlockRouter {parameters: {sleep_sec: 0.105}}' })
})

/**
 * upload-artifact's rooting rule (actions/upload-artifact, `search.ts`): one path roots the
 * artifact at itself when it is a directory and at its directory when it is a file; several
 * paths root it at their least common ancestor. Returns artifact path → file on disk.
 */
function uploadArtifact(cwd: string, paths: string[]): Map<string, string> {
  const abs = paths.map(p => path.resolve(cwd, p))
  const isDir = (p: string) => fs.statSync(p).isDirectory()
  const common = (a: string, b: string): string => {
    const [x, y] = [a.split(path.sep), b.split(path.sep)]
    let i = 0
    while (i < x.length && i < y.length && x[i] === y[i]) i++
    return x.slice(0, i).join(path.sep) || path.sep
  }
  const root =
    abs.length === 1 ? (isDir(abs[0]) ? abs[0] : path.dirname(abs[0])) : abs.reduce(common)
  const files = abs.flatMap(p =>
    isDir(p)
      ? fs.readdirSync(p, { recursive: true, encoding: 'utf8' }).map(f => path.join(p, f))
      : [p]
  )
  return new Map(files.filter(f => !isDir(f)).map(f => [path.relative(root, f), f]))
}

type RunStep = Step & { id?: string; run?: string; env?: Record<string, string> }

/**
 * A pull-request workflow's steps after the benchmark, as a runner takes them, given the report
 * the action left at its `report` output: the artifact it uploads (name → artifact path → file).
 */
function uploadedArtifacts(
  wf: Workflow,
  report: string,
  ws: string
): Map<string, Map<string, string>> {
  const values = { steps: { bench: { outputs: { report } } }, github: FORK_PULL_REQUEST }
  const expand = (text: string) => expandIn(text, values)
  const all = steps(wf) as RunStep[]
  const artifacts = new Map<string, Map<string, string>>()
  for (const step of all.slice(all.findIndex(s => s.id === 'bench') + 1)) {
    if (!stepRuns(step.if, values)) continue
    if (step.run) {
      const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, expand(v)]))
      execFileSync('bash', ['-e', '-c', expand(step.run)], {
        cwd: ws,
        env: { ...process.env, ...env }
      })
    } else if (step.uses?.startsWith('actions/upload-artifact')) {
      const paths = expand(step.with!.path)
        .split('\n')
        .map(p => p.trim())
        .filter(Boolean)
      artifacts.set(step.with!.name, uploadArtifact(ws, paths))
    }
  }
  return artifacts
}

/**
 * pr-comment-fork.yml in the base repository after a run of `head`: download-artifact's
 * `pattern:` puts each artifact into `<path>/<name>/`; then its script runs there. Returns what
 * it failed or warned.
 */
async function forkComment(
  artifacts: Map<string, Map<string, string>>,
  github: Awaited<ReturnType<typeof startFakeGitHub>>,
  head: string
): Promise<string[]> {
  const fork = steps(read(FORK_COMMENT))
  const base = tmp('fork-comment-')
  const download = fork.find(s => s.uses?.startsWith('actions/download-artifact'))!
  for (const [name, files] of artifacts) {
    for (const [rel, file] of files) {
      const to = path.join(base, download.with!.path, name, rel)
      fs.mkdirSync(path.dirname(to), { recursive: true })
      fs.copyFileSync(file, to)
    }
  }
  const said: string[] = []
  const core = {
    setFailed: (m: string) => said.push(`failed: ${m}`),
    warning: (m: string) => said.push(`warning: ${m}`)
  }
  const context = {
    repo: { owner: 'octo', repo: 'bench' },
    payload: {
      workflow_run: {
        id: 1,
        head_sha: head,
        head_branch: 'feature',
        html_url: 'https://github.example/octo/bench/actions/runs/1',
        head_repository: { full_name: 'forker/bench', owner: { login: 'forker' } }
      }
    }
  }
  const octokit = getOctokit('test-token', { baseUrl: github.baseUrl })
  const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor
  const cwd = process.cwd()
  process.chdir(base)
  try {
    await new AsyncFunction('require', 'github', 'context', 'core', forkScript())(
      require,
      octokit,
      context,
      core
    )
  } finally {
    process.chdir(cwd)
  }
  return said
}

/** The check's lines a job's report carries, as `checkLine` writes them. */
const reading = (conclusion: CheckConclusion, regressed: number, inconclusive: number) =>
  checkLine({ conclusion, compared: 1, regressed, inconclusive, broken: 0 })
const FAILURE = reading('failure', 1, 0)
const NEUTRAL = reading('neutral', 0, 1)
const SUCCESS = reading('success', 0, 0)

test('the fork pattern end to end: each pull-request workflow uploads its report, pr-comment-fork.yml posts each to its own comment and creates its check', async () => {
  const github = await startFakeGitHub()
  const head = 'f'.repeat(40)
  github.pulls.push({ number: 7, head: { sha: head, ref: 'feature', label: 'forker:feature' } })
  // A comment of a version from before keys stays as it is.
  github.comments.set(7, [{ id: 1, body: `${REPORT_MARKER}\n### GNES latency: an old report` }])
  /**
   * One run of `wf` on `sha`: what the action would have left, with its default comment key and
   * the check's line `check` (none: `check-run: false`, or a version from before check runs).
   */
  const runOf = (wf: Workflow, text: string, sha = head, check: string | null = FAILURE) => {
    const ws = tmp('fork-pattern-')
    const report = path.join(ws, 'out', 'report.md')
    fs.mkdirSync(path.dirname(report))
    const markdown = `${check === null ? '' : `${check}\n`}### ${text}\n`
    const body = markReport(markdown, `${wf.name} / ${Object.keys(wf.jobs)[0]}`, sha)
    fs.writeFileSync(report, body)
    return { body, artifacts: uploadedArtifacts(wf, report, ws) }
  }
  try {
    const posted: string[] = []
    for (const [where, wf] of JUDGES) {
      const { body, artifacts } = runOf(wf, `${where}, first push`)
      expect([...artifacts.values()].map(a => [...a.keys()])).toEqual([['report.md']])
      expect(await forkComment(artifacts, github, head)).toEqual([])
      posted.push(body)
    }
    expect(github.comments.get(7)!.map(c => c.body)).toEqual([
      `${REPORT_MARKER}\n### GNES latency: an old report`,
      ...posted
    ])
    // Each job's check, named as the job names it, on the run's head from the payload, with the
    // conclusion, title and report the artifact carries.
    expect(github.checkRuns).toEqual(
      JUDGES.map(([where, wf]) =>
        expect.objectContaining({
          name: checkName(`${wf.name} / ${Object.keys(wf.jobs)[0]}`),
          head_sha: head,
          status: 'completed',
          conclusion: 'failure',
          output: { title: 'Latency regression in 1 case', summary: `### ${where}, first push\n` },
          details_url: 'https://github.example/octo/bench/actions/runs/1'
        })
      )
    )

    // A second push: each workflow's comment is updated in place, the others left alone.
    const second = 'e'.repeat(40)
    github.pulls[0].head.sha = second
    const again = runOf(QUICK_START, 'the Quick start, second push', second, NEUTRAL)
    expect(await forkComment(again.artifacts, github, second)).toEqual([])
    const quickCheck = checkName(`${QUICK_START.name} / ${Object.keys(QUICK_START.jobs)[0]}`)
    const onSecond = () => github.checkRuns.filter(c => c.head_sha === second)
    expect(onSecond()).toEqual([
      expect.objectContaining({ name: quickCheck, conclusion: 'neutral' })
    ])
    // Its run re-run: the same check updated, not a second one.
    const rerun = runOf(QUICK_START, 'the Quick start, second push', second, SUCCESS)
    expect(await forkComment(rerun.artifacts, github, second)).toEqual([])
    expect(onSecond()).toEqual([
      expect.objectContaining({ name: quickCheck, conclusion: 'success' })
    ])
    expect(github.checkRuns).toHaveLength(JUDGES.length + 1)
    const bodies = github.comments.get(7)!.map(c => c.body)
    expect(bodies).toHaveLength(1 + JUDGES.length)
    expect(bodies.filter(b => b === rerun.body)).toHaveLength(1)
    expect(bodies.filter(b => b.includes('first push'))).toHaveLength(JUDGES.length - 1)

    // The first push's run finishing last finds no open pull request with its head: the second
    // push's verdict stays.
    const late = runOf(QUICK_START, 'the Quick start, first push, finishing last')
    expect(await forkComment(late.artifacts, github, head)).toEqual([
      `warning: no open pull request has head ${head} (pushed again since, or closed); nothing to comment on`
    ])
    expect(github.comments.get(7)!.map(c => c.body)).toEqual(bodies)
    // A report about another head than its run's is refused.
    const other = runOf(QUICK_START, 'the Quick start, on another head', head)
    expect(await forkComment(other.artifacts, github, second)).toEqual([
      expect.stringMatching(
        new RegExp(`^failed: .*the report is about head ${head}, not the run's head ${second}$`)
      )
    ])
    expect(github.comments.get(7)!.map(c => c.body)).toEqual(bodies)

    // Two jobs of a matrix, each uploading an artifact of its own name in one run: two comments.
    const matrix = new Map<string, Map<string, string>>()
    const ws = tmp('fork-matrix-')
    for (const engine of ['docker', 'local']) {
      const file = path.join(ws, `${engine}.md`)
      const key = `Latency (PR) / bench / {"engine": "${engine}"}`
      fs.writeFileSync(file, markReport(`### matrix ${engine}\n`, key, second))
      matrix.set(`gnes-latency-report-${engine}`, new Map([['report.md', file]]))
    }
    expect(await forkComment(matrix, github, second)).toEqual([])
    expect(github.comments.get(7)!.filter(c => c.body.includes('### matrix'))).toHaveLength(2)

    // What is not one of this action's reports is refused, and nothing is posted for it.
    const before = github.comments.get(7)!.length
    fs.writeFileSync(path.join(ws, 'bogus.md'), 'Please merge <!-- gnes-latency-bench -->\n')
    const bogus = new Map([
      ['gnes-latency-report', new Map([['report.md', path.join(ws, 'bogus.md')]])]
    ])
    expect(await forkComment(bogus, github, second)).toEqual([
      expect.stringMatching(/^failed: .*the artifact does not hold a gnes-latency-bench report/)
    ])
    expect(await forkComment(new Map(), github, second)).toEqual([
      'warning: the run left no report artifact; nothing to comment'
    ])
    // A check line that is not one this action writes refuses the report: a conclusion GitHub
    // knows but this action never gives, markup in the title.
    for (const line of [
      '<!-- check: cancelled; Latency regression in 1 case -->',
      '<!-- check: success; <img src=x onerror=alert(1)> -->'
    ]) {
      const odd = runOf(QUICK_START, 'the Quick start, odd check', second, line)
      expect(await forkComment(odd.artifacts, github, second)).toEqual([
        expect.stringMatching(/^failed: .*the report's check line is not one this action writes$/)
      ])
    }
    expect(github.comments.get(7)).toHaveLength(before)
    // Reports without a check line (the matrix's above) made no check.
    expect(github.checkRuns).toHaveLength(JUDGES.length + 1)
  } finally {
    await github.close()
  }
})
