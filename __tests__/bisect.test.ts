/**
 * The bisect: its search on constructed answers (every culprit position of a 16-commit range,
 * middles that cannot tell), its report, the range it reads from git, and a real one: a GNES
 * repository whose second commit slows every router, bisected with paired runs of real GNES built
 * from each commit's source.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { parse } from 'yaml'
import { parseInputs } from '../src/config/inputs'
import { bisect, commitRange, type BisectRun } from '../src/pipeline'
import { nextStep, plannedProbes, type ProbeResult } from '../src/judge'
import type { Verdict } from '../src/judge/verdict'
import { renderBisectMarkdown } from '../src/report'
import { writeEntryFiles } from '../src/history/dir-store'
import { shownSeries } from '../src/render'
import { slowdownToBisect } from '../src/judge/bisect-target'
import { benchEntry, pacedEntry } from './fixtures/render/entries'
import { buildCli } from './helpers/bundle'
import { gnesEdits, slowRouters, touch } from './helpers/gnes-repo'
import { quiet } from './helpers/log'
import { tmp } from './helpers/tmp'

const result = (base: number, head: number, answer: Verdict): ProbeResult => ({
  base,
  head,
  answer,
  change: answer === 'regression' ? 0.08 : 0.001,
  ci: answer === 'regression' ? [0.05, 0.11] : [-0.01, 0.012],
  metric: 'path',
  pairs: 6,
  seconds: 130
})

/** Runs the search with `answer` deciding every comparison; returns the end and the probes. */
function search(n: number, answer: (base: number, head: number) => Verdict) {
  const results: ProbeResult[] = []
  for (;;) {
    const step = nextStep(n, results)
    if ('end' in step) return { end: step.end, results }
    results.push(result(step.probe.base, step.probe.head, answer(step.probe.base, step.probe.head)))
    if (results.length > 50) throw new Error('the search does not end')
  }
}

describe('the search', () => {
  it('finds the culprit at every position of 16 commits in at most 5 comparisons', () => {
    expect(plannedProbes(16)).toBe(5)
    for (let culprit = 1; culprit < 16; culprit++) {
      const { end, results } = search(16, (b, h) =>
        b < culprit && culprit <= h ? 'regression' : 'no-change'
      )
      expect(end).toEqual({ kind: 'culprit', index: culprit })
      expect(results.length).toBeLessThanOrEqual(5)
      // The ends first; every later head is judged against a commit known to be good.
      expect(results[0]).toMatchObject({ base: 0, head: 15 })
    }
  })

  it('two adjacent commits: the ends decide it', () => {
    expect(search(2, () => 'regression').end).toEqual({ kind: 'culprit', index: 1 })
  })

  it('stops with no step when the bad end is not a regression against the good end', () => {
    for (const answer of ['no-change', 'inconclusive', 'improvement'] as Verdict[]) {
      const { end, results } = search(16, () => answer)
      expect(end).toEqual({ kind: 'no-step', answer })
      expect(results).toHaveLength(1)
    }
  })

  it('a middle that cannot tell is compared from the bad end, and the search goes on', () => {
    const culprit = 11
    // Commit 7 against 0 cannot tell; 15 against 7 is a regression, so 7 is good.
    const { end, results } = search(16, (b, h) =>
      b === 0 && h === 7 ? 'inconclusive' : b < culprit && culprit <= h ? 'regression' : 'no-change'
    )
    expect(end).toEqual({ kind: 'culprit', index: culprit })
    expect(results.slice(1, 3).map(r => [r.base, r.head, r.answer])).toEqual([
      [0, 7, 'inconclusive'],
      [7, 15, 'regression']
    ])
    // Convicted from the bad end: 15 against 7 shows no change, so 7 is already slow.
    const early = search(16, (b, h) =>
      b === 0 && h === 7 ? 'inconclusive' : b < 5 && 5 <= h ? 'regression' : 'no-change'
    )
    expect(early.end).toEqual({ kind: 'culprit', index: 5 })
  })

  it('stops with the range when a middle can be told from neither end', () => {
    const { end, results } = search(16, (b, h) =>
      b === 0 && h === 15 ? 'regression' : 'inconclusive'
    )
    expect(end).toEqual({ kind: 'range', lo: 0, hi: 15 })
    expect(results).toHaveLength(3)
  })

  it('refuses a range of fewer than two commits', () => {
    expect(() => nextStep(1, [])).toThrow('a bisect needs a good and a bad commit (got 1 commits)')
  })
})

describe('the report', () => {
  const commits = Array.from({ length: 4 }, (_, i) => ({
    sha: String(i).repeat(40),
    subject: i === 2 ? 'slow <script>alert(1)</script> **bold**' : `commit ${i}`
  }))

  it('names the culprit with its step and every comparison; a subject is escaped', () => {
    const run = {
      commits,
      comparisons: [
        result(0, 3, 'regression'),
        result(0, 1, 'no-change'),
        result(1, 2, 'regression')
      ],
      end: { kind: 'culprit' as const, index: 2 },
      seconds: 400
    }
    const md = renderBisectMarkdown(run, { repositoryUrl: 'https://github.com/o/r' })
    expect(md).toContain(
      '## Bisect: 🔴 the first slow commit is [`2222222`](https://github.com/o/r/commit/2222222222222222222222222222222222222222)'
    )
    expect(md).toContain('&lt;script&gt;')
    expect(md).not.toContain('<script>')
    expect(md).toContain('The step: `path` +8.0%')
    expect(md).toContain(
      'Found in 3 paired comparisons over 4 commits (a clean search takes 3), 6 min 40 s.'
    )
    expect(md.split('\n').filter(l => /^\| \d/.test(l))).toHaveLength(3)
  })

  it('says when there is nothing to search, and lists a range it could not narrow', () => {
    const none = renderBisectMarkdown({
      commits,
      comparisons: [result(0, 3, 'inconclusive')],
      end: { kind: 'no-step', answer: 'inconclusive' },
      seconds: 60
    })
    expect(none).toContain('nothing to search, the bad end is 🟡 inconclusive against the good end')
    expect(none).toContain('this run cannot tell whether the bad end is slower')
    const range = renderBisectMarkdown({
      commits,
      comparisons: [
        result(0, 3, 'regression'),
        result(0, 1, 'inconclusive'),
        result(1, 3, 'inconclusive')
      ],
      end: { kind: 'range', lo: 0, hi: 3 },
      seconds: 60
    })
    expect(range).toContain('the first slow commit is one of 3')
    expect(range.split('\n').filter(l => l.startsWith('- `'))).toHaveLength(3)
  })
})

describe('the range', () => {
  const git = (dir: string, ...args: string[]) =>
    execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8' }).trim()

  function repository(n: number): { dir: string; shas: string[] } {
    const dir = tmp()
    git(dir, 'init', '-q', '-b', 'main')
    const shas = Array.from({ length: n }, (_, i) => {
      fs.writeFileSync(path.join(dir, 'f'), `${i}\n`)
      git(dir, 'add', '-A')
      git(dir, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', `c${i}`)
      return git(dir, 'rev-parse', 'HEAD')
    })
    return { dir, shas }
  }

  it('reads the first-parent line from good to bad, good first', async () => {
    const { dir, shas } = repository(5)
    const range = await commitRange(dir, shas[1], 'main')
    expect(range.map(c => c.sha)).toEqual(shas.slice(1))
    expect(range.map(c => c.subject)).toEqual(['c1', 'c2', 'c3', 'c4'])
  })

  it('refuses, before anything runs, a bad end that is no descendant, the same commit, an unknown one', async () => {
    const { dir, shas } = repository(3)
    await expect(commitRange(dir, shas[2], shas[0])).rejects.toThrow(
      `input 'good' = '${shas[2]}': it is not an ancestor of ${shas[0]}`
    )
    await expect(commitRange(dir, 'main', shas[2])).rejects.toThrow('it is the good commit')
    await expect(commitRange(dir, shas[0], 'nope')).rejects.toThrow(
      `input 'bad' = 'nope': no such commit in the repository at ${dir}`
    )
    // Nothing reaches git that it could read as an option or a range.
    for (const hostile of ['--output=/tmp/x', '.hidden']) {
      await expect(commitRange(dir, hostile, 'main')).rejects.toThrow(
        `input 'good' = '${hostile}': good must be a commit, branch or tag name (letters, digits, _ . / -, not starting with - or .)`
      )
    }
    await expect(commitRange(dir, 'main..HEAD', 'main')).rejects.toThrow(
      "input 'good' = 'main..HEAD': good names one commit, not a range"
    )
  })

  it('runs one comparison per step, each between the commits the search names', async () => {
    const { dir, shas } = repository(9)
    const calls: string[] = []
    const run = await bisect(
      parseInputs({
        baseline: 'paired',
        topology: path.join(__dirname, '..', 'topologies', 'case1.yml')
      }),
      { repo: dir, good: shas[0], bad: shas[8] },
      {
        log: quiet,
        compare: async (base, head) => {
          calls.push(`${base.subject}->${head.subject}`)
          const culprit = 6
          const [b, h] = [shas.indexOf(base.sha), shas.indexOf(head.sha)]
          return result(b, h, b < culprit && culprit <= h ? 'regression' : 'no-change')
        }
      }
    )
    expect(run.end).toEqual({ kind: 'culprit', index: 6 })
    expect(calls).toEqual(['c0->c8', 'c0->c4', 'c4->c6', 'c4->c5'])
  })
})

/** Case `id`'s burst series: 40 pushes, 10 % slower from push `at` on (small noise). */
const stepped = (id: string, at: number, hour0 = 0) =>
  Array.from({ length: 40 }, (_, i) =>
    benchEntry(hour0 + i, id, {
      best: {
        ...benchEntry(i).best,
        roundtrip: (i >= at ? 0.11 : 0.1) * (1 + ((i * 7) % 5) / 500)
      }
    })
  )

describe('the slowdown a history shows (--change-point)', () => {
  it('is the newest headline slowdown, or the newest of one case or series, between its commits', () => {
    // Case 2's step is recorded later than case 1's.
    const history = [...stepped('1', 30), ...stepped('2', 20, 100)]
    const newest = slowdownToBisect(shownSeries(history, Infinity), 'newest')
    expect([newest.caseId, newest.metric]).toEqual(['2', 'roundtrip'])
    expect(newest.lastBefore.commit.sha).toBe(benchEntry(119, '2').commit.sha)
    expect(newest.firstAfter.commit.sha).toBe(benchEntry(120, '2').commit.sha)
    for (const which of ['1', '1/burst']) {
      const one = slowdownToBisect(shownSeries(history, Infinity), which)
      expect(one.caseId).toBe('1')
      expect([one.lastBefore.commit.sha, one.firstAfter.commit.sha]).toEqual([
        benchEntry(29).commit.sha,
        benchEntry(30).commit.sha
      ])
    }
  })

  it('of a GNES case at minimal load, is a slowdown of path (what its paired verdicts read)', () => {
    // latency steps at entry 20 (the client's transfer), path at 30: the bisect searches path's.
    const history = Array.from({ length: 40 }, (_, i) => {
      const e = pacedEntry(i)
      const path = (i >= 30 ? 0.011 : 0.01) * (1 + ((i * 7) % 5) / 500)
      const send = i >= 20 ? 0.05 : 0.02
      return { ...e, best: { ...e.best, path, 'c->f:send': send, latency: path + send } }
    })
    const step = slowdownToBisect(shownSeries(history, Infinity), 'newest')
    expect([step.metric, step.index]).toEqual(['path', 30])
  })

  it('says why there is nothing to bisect: no slowdown (a speed-up is none), no commits to name', () => {
    const faster = stepped('1', 30).map(e => ({
      ...e,
      best: { ...e.best, roundtrip: 0.21 - e.best.roundtrip }
    }))
    expect(() => slowdownToBisect(shownSeries(faster, Infinity), 'newest')).toThrow(
      'no slowdown of a verdict metric (path or the headline) in the history (40 entries): nothing to bisect'
    )
    expect(() => slowdownToBisect(shownSeries(stepped('1', 30), Infinity), '3/burst')).toThrow(
      'no slowdown of a verdict metric (path or the headline) in series 3/burst'
    )
    const anonymous = stepped('1', 30).map(e => ({ ...e, commit: { ...e.commit, sha: null } }))
    expect(() => slowdownToBisect(shownSeries(anonymous, Infinity), '1')).toThrow(
      'the newest slowdown in series 1 lies between entries without a commit (bench/1/29, bench/1/30): give --good and --bad instead'
    )
  })

  it('the command takes those commits as its ends (refused here before anything runs: nothing to build)', async () => {
    const cli = await buildCli()
    const history = tmp()
    writeEntryFiles(history, stepped('1', 30))
    const repo = tmp()
    execFileSync('git', ['-C', repo, 'init', '-q'])
    const run = (...args: string[]) =>
      spawnSync(process.execPath, [cli, 'bisect', ...args], { encoding: 'utf8', timeout: 60_000 })
    const refused = run('--change-point', '1', '--history-dir', history, '--repo', repo)
    expect(refused.status).toBe(1)
    expect(refused.stdout).toContain(`bisecting the slowdown of case 1's roundtrip +10.`)
    expect(refused.stdout).toContain('between 000001d and 000001e')
    // The bisect took the step's last commit before as its good end; this repository has nothing
    // a commit could build, so it is refused there, before anything starts.
    expect(refused.stderr).toContain(
      `'${benchEntry(29).commit.sha}': a commit's base needs what it builds`
    )
    const both = run('--change-point', '1', '--good', 'a', '--bad', 'b')
    expect(both.stderr).toBe('error: give --change-point or --good/--bad, not both\n')
    const nowhere = run('--change-point', 'newest')
    expect(nowhere.stderr).toBe('error: --change-point reads the history: give --history-dir DIR\n')
  })
})

describe('workflows/bisect.yml', () => {
  /** The bisect step as a runner runs it: its env from the dispatch inputs, bash -eo pipefail. */
  function runStep(workspace: string, inputs: { good: string; bad: string; case: string }) {
    const wf = parse(fs.readFileSync(path.join(__dirname, '..', 'workflows', 'bisect.yml'), 'utf8'))
    const steps = (Object.values(wf.jobs)[0] as { steps: { run?: string }[] }).steps
    const script = path.join(workspace, '..', 'step.sh')
    fs.writeFileSync(script, steps.find(s => s.run?.includes('bisect'))!.run!)
    const temp = fs.mkdtempSync(path.join(workspace, '..', 'runner-temp-'))
    return spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
      cwd: workspace,
      encoding: 'utf8',
      timeout: 60_000,
      env: {
        ...process.env,
        GOOD: inputs.good,
        BAD: inputs.bad || 'f'.repeat(40),
        CASE: inputs.case,
        REPOSITORY_URL: 'https://github.com/octo/gnes',
        RUNNER_TEMP: temp,
        GITHUB_STEP_SUMMARY: path.join(temp, 'summary.md')
      }
    })
  }

  it('with good empty, bisects the newest slowdown of the case on the gh-pages checkout; with good, its range', async () => {
    const cli = await buildCli()
    const workspace = path.join(tmp(), 'workspace')
    fs.mkdirSync(path.join(workspace, '.gnes-latency-bench', 'dist'), { recursive: true })
    execFileSync('git', ['-C', workspace, 'init', '-q'])
    // A checkout of something with a setup.py, though none of the history's commits.
    fs.writeFileSync(path.join(workspace, 'setup.py'), '')
    // The action's repository at v1, as the workflow's second checkout puts it.
    fs.symlinkSync(cli, path.join(workspace, '.gnes-latency-bench', 'dist', 'cli.js'))
    // gh-pages, as the third: case 1 slowed between two pushes.
    writeEntryFiles(path.join(workspace, '.gh-pages', 'benchmarks'), stepped('1', 30))

    const newest = runStep(workspace, { good: '', bad: '', case: '1' })
    expect(newest.stdout).toContain(`bisecting the slowdown of case 1's roundtrip +10.`)
    expect(newest.stdout).toContain('between 000001d and 000001e')
    // This workspace has none of the history's commits: refused there, before anything runs.
    expect(newest.stderr).toContain(`'${benchEntry(29).commit.sha}'`)
    expect(newest.status).toBe(1)

    const given = runStep(workspace, { good: 'a'.repeat(40), bad: 'b'.repeat(40), case: '1' })
    expect(given.stdout).not.toContain('bisecting the slowdown')
    expect(given.stderr).toContain(`'${'a'.repeat(40)}'`)
    expect(given.status).toBe(1)
  })
})

describe('a real bisect', () => {
  it('finds the commit that slowed every router, by paired runs of GNES built from each commit', async () => {
    // Three commits: 0.0.47, then every BaseRouter holding each message 20 ms, then a touch.
    const repo = await gnesEdits('0.0.47', [slowRouters(20), touch(1)])
    const out = tmp('gnes-bisect-')
    const lines: string[] = []
    const inputs = parseInputs({
      baseline: 'paired',
      'gnes-source': repo.dir,
      cases: '1',
      engine: 'local',
      profiles: 'minimal',
      'paired-deploy': 'once',
      runs: '3',
      'max-pairs': '3',
      requests: '10',
      'warmup-requests': '3',
      'doc-bytes': '1000',
      // A 20 ms hold is several times case 1's path at this load; identical commits only need to
      // stay inside ±50 % to show no change in three pairs.
      'alert-threshold': '50%',
      'out-dir': out
    })
    const run: BisectRun = await bisect(
      inputs,
      { repo: repo.dir, good: repo.commits[0], bad: repo.commits[2] },
      { log: { ...quiet, info: m => lines.push(m) } }
    )
    expect(run.end).toEqual({ kind: 'culprit', index: 1 })
    expect(run.commits.map(c => c.sha)).toEqual(repo.commits)
    expect(run.comparisons.map(c => [c.base, c.head, c.answer])).toEqual([
      [0, 2, 'regression'],
      [0, 1, 'regression']
    ])
    expect(run.comparisons[0].change).toBeGreaterThan(1)
    // Each comparison's sides were the commits' own builds, and nothing is left behind.
    expect(fs.readdirSync(path.join(out, 'bisect')).sort()).toEqual([
      `1-${repo.commits[2].slice(0, 7)}-vs-${repo.commits[0].slice(0, 7)}`,
      `2-${repo.commits[1].slice(0, 7)}-vs-${repo.commits[0].slice(0, 7)}`
    ])
    const worktrees = execFileSync('git', ['-C', repo.dir, 'worktree', 'list'], {
      encoding: 'utf8'
    })
    expect(worktrees.trim().split('\n')).toHaveLength(1)
    expect(renderBisectMarkdown(run)).toContain(
      `the first slow commit is \`${repo.commits[1].slice(0, 7)}\``
    )
  }, 900_000)
})
