import { execFileSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { getOctokit } from '@actions/github'
import { parse } from 'yaml'
import { DEFAULTS, parseInputs } from '../src/config/inputs'
import { checkInputs } from '../src/config/preflight'
import { checkRun } from '../src/pipeline/preflight'
import { bisectCommand } from '../src/commands/bisect'
import { COMMENT_MARKER } from '../src/report'
import { loadTopologyFile } from '../src/topology/load'
import { startFakeGitHub } from './fixtures/report/github-server'

const dir = path.join(__dirname, '..', 'workflows')
const files = fs.readdirSync(dir).filter(f => f.endsWith('.yml'))

interface Step {
  uses?: string
  with?: Record<string, string>
}
const steps = (wf: { jobs: Record<string, { steps: Step[] }> }): Step[] =>
  Object.values(wf.jobs).flatMap(j => j.steps)
const read = (file: string) => parse(fs.readFileSync(path.join(dir, file), 'utf8'))
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

  test(`${FORK_COMMENT} posts the artifact pr-compare.yml uploads, checked as one of our reports`, () => {
    const wf = read(FORK_COMMENT)
    const all = steps(wf)
    // It runs in the base repository with a write token: it must never check out the PR's code.
    expect(all.some(s => s.uses?.startsWith('actions/checkout'))).toBe(false)
    expect(wf.on.workflow_run.workflows).toEqual([read('pr-compare.yml').name])
    expect(wf.permissions).toEqual({ actions: 'read', 'pull-requests': 'write' })
    const upload = steps(read('pr-compare.yml')).find(s =>
      s.uses?.startsWith('actions/upload-artifact')
    )
    const download = all.find(s => s.uses?.startsWith('actions/download-artifact'))
    expect(download?.with?.name).toBe(upload?.with?.name)
    const script = all.find(s => s.uses?.startsWith('actions/github-script'))?.with?.script ?? ''
    expect(script).toContain(`const marker = '${COMMENT_MARKER}'`)
    expect(script).toContain('body.startsWith(marker)')
  })
})

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
  const checkout = fs.mkdtempSync(path.join(os.tmpdir(), 'gnes-checkout-'))
  fs.writeFileSync(path.join(checkout, 'setup.py'), '')
  const fromPr = { ...inputs, 'gnes-source': checkout, 'baseline-ref': 'a'.repeat(40) }
  expect(() => checkInputs(fromPr)).not.toThrow()
  expect(checkRun(fromPr).map(s => s.topology.id)).toEqual(['1', '3'])
  expect(all).toHaveLength(2)
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

test('the fork pattern end to end: pr-compare.yml uploads the report, pr-comment-fork.yml posts it on the pull request', async () => {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'fork-pattern-'))
  const github = await startFakeGitHub()
  try {
    // What the action left: its report at the `report` output (out-dir/report.md).
    const report = path.join(ws, 'out', 'report.md')
    fs.mkdirSync(path.dirname(report))
    const body = `${COMMENT_MARKER}\n### GNES latency, paired on this runner: 🟡 inconclusive in 1 case\n`
    fs.writeFileSync(report, body)
    const values: Record<string, string> = {
      'steps.bench.outputs.report': report,
      'github.event.pull_request.number': '7'
    }
    const expand = (text: string) =>
      text.replace(/\$\{\{\s*(.+?)\s*\}\}/g, (_, e: string) => {
        if (!(e in values)) throw new Error(`no value for \${{ ${e} }}`)
        return values[e]
      })

    // pr-compare.yml's steps after the benchmark, as a runner takes them.
    const compare = steps(read('pr-compare.yml')) as (Step & {
      id?: string
      run?: string
      env?: Record<string, string>
    })[]
    let artifact = new Map<string, string>()
    for (const step of compare.slice(compare.findIndex(s => s.id === 'bench') + 1)) {
      if (step.run) {
        const env = Object.fromEntries(
          Object.entries(step.env ?? {}).map(([k, v]) => [k, expand(v)])
        )
        execFileSync('bash', ['-e', '-c', expand(step.run)], {
          cwd: ws,
          env: { ...process.env, ...env }
        })
      } else if (step.uses?.startsWith('actions/upload-artifact')) {
        const paths = expand(step.with!.path)
          .split('\n')
          .map(p => p.trim())
          .filter(Boolean)
        artifact = uploadArtifact(ws, paths)
      }
    }
    expect([...artifact.keys()]).toEqual(['report.md'])

    // pr-comment-fork.yml in the base repository: download into its path, run its script.
    const fork = steps(read(FORK_COMMENT))
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'fork-comment-'))
    const download = fork.find(s => s.uses?.startsWith('actions/download-artifact'))!
    for (const [rel, file] of artifact) {
      const to = path.join(base, download.with!.path, rel)
      fs.mkdirSync(path.dirname(to), { recursive: true })
      fs.copyFileSync(file, to)
    }
    github.pulls.push({
      number: 7,
      head: { sha: 'f'.repeat(40), ref: 'feature', label: 'forker:feature' }
    })
    const script = fork.find(s => s.uses?.startsWith('actions/github-script'))!.with!.script
    const failed: string[] = []
    const core = {
      setFailed: (m: string) => failed.push(m),
      warning: (m: string) => failed.push(m)
    }
    const context = {
      repo: { owner: 'octo', repo: 'bench' },
      payload: {
        workflow_run: {
          id: 1,
          head_sha: 'f'.repeat(40),
          head_branch: 'feature',
          head_repository: { full_name: 'forker/bench', owner: { login: 'forker' } }
        }
      }
    }
    const octokit = getOctokit('test-token', { baseUrl: github.baseUrl })
    const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor
    const cwd = process.cwd()
    process.chdir(base)
    try {
      await new AsyncFunction('require', 'github', 'context', 'core', script)(
        require,
        octokit,
        context,
        core
      )
    } finally {
      process.chdir(cwd)
    }
    expect(failed).toEqual([])
    expect(github.comments.get(7)?.map(c => c.body)).toEqual([body])
  } finally {
    await github.close()
  }
})
