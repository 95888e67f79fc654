/**
 * Paired mode's inputs: parsed by the one schema, and an incomplete or contradictory pair refused
 * by the pre-flight before anything is installed or started.
 */
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { execFileSync } from 'node:child_process'
import * as yaml from 'yaml'
import { comparedCommits } from '../src/action/compared-commits'
import { withPairedBase } from '../src/action/paired-base'
import type { ComparedCommits } from '../src/result/compared-commits'
import { comparedLine } from '../src/report/compared-text'
import { quickStartWorkflow } from './helpers/readme'
import type { WorkflowContext } from '../src/result/context'
import { InputError, parseInputs, type RawInputs } from '../src/config/inputs'
import { checkPairedRun, checkRun } from '../src/pipeline/preflight'
import { assetPath } from '../src/paths'
import { baseInputs, pairedProfile } from '../src/pipeline/suite/paired'

const out = path.join(os.tmpdir(), 'paired-inputs-out')
const inputs = (raw: Partial<RawInputs>) => parseInputs({ 'out-dir': out, ...raw })
const example = (ms: number) => assetPath('topologies', 'examples', `blocking-${ms}ms.yml`)

function refusal(raw: Partial<RawInputs>): string {
  try {
    checkRun(inputs(raw))
  } catch (err) {
    expect(err).toBeInstanceOf(InputError)
    return (err as Error).message
  }
  throw new Error('accepted')
}

describe('paired mode inputs', () => {
  test('history is the default; the base inputs are empty', () => {
    expect(inputs({})).toMatchObject({
      baseline: 'history',
      'baseline-gnes-version': null,
      'baseline-image': null,
      'baseline-topology': null
    })
  })

  test('the schema names a bad mode or an unsupported base version', () => {
    expect(() => inputs({ baseline: 'side-by-side' })).toThrow(
      "input 'baseline' = 'side-by-side': baseline must be one of history, paired"
    )
    expect(() => inputs({ baseline: 'paired', 'baseline-gnes-version': '0.0.41' })).toThrow(
      "input 'baseline-gnes-version' = '0.0.41': baseline-gnes-version must be a supported GNES release"
    )
  })

  test('a paired run needs a base', () => {
    expect(refusal({ baseline: 'paired' })).toContain(
      "input 'baseline' = 'paired': paired mode needs a base to measure beside the head: set baseline-gnes-version"
    )
  })

  test('a base commit is one revision git can take, with what it builds, and nothing else named', () => {
    expect(() => inputs({ baseline: 'paired', 'baseline-ref': '--upload-pack=x' })).toThrow(
      "input 'baseline-ref' = '--upload-pack=x': baseline-ref must be a commit, branch or tag name"
    )
    expect(() => inputs({ baseline: 'paired', 'baseline-ref': 'main..topic' })).toThrow(
      'baseline-ref names one commit, not a range'
    )
    expect(refusal({ baseline: 'paired', 'baseline-ref': 'main' })).toContain(
      "input 'baseline-ref' = 'main': a commit's base needs what it builds: gnes-source or dockerfile (a GNES checkout), or topology files of this repository"
    )
    const both = refusal({
      baseline: 'paired',
      'baseline-ref': 'main',
      topology: example(100),
      'baseline-topology': example(105)
    })
    expect(both).toContain(
      "input 'baseline-ref' = 'main': the base is that commit's own topology files and Dockerfile; leave baseline-topology empty"
    )
    expect(() =>
      checkRun(inputs({ baseline: 'paired', 'baseline-ref': 'main', topology: example(100) }))
    ).not.toThrow()
  })

  test('a base input without paired mode is refused, not ignored', () => {
    expect(refusal({ 'baseline-gnes-version': '0.0.46' })).toContain(
      "input 'baseline-gnes-version' = '0.0.46': baseline-gnes-version is used only with baseline: paired"
    )
    expect(refusal({ 'paired-deploy': 'once' })).toContain(
      "input 'paired-deploy' = 'once': paired-deploy is used only with baseline: paired"
    )
    expect(refusal({ baseline: 'paired', cases: '1', 'paired-deploy': 'each' })).toContain(
      'paired-deploy must be one of once, per-pair'
    )
    expect(refusal({ 'paired-interleave': 'blocks' })).toContain(
      "input 'paired-interleave' = 'blocks': paired-interleave is used only with baseline: paired"
    )
    expect(refusal({ baseline: 'paired', cases: '1', 'paired-interleave': 'runs' })).toContain(
      'paired-interleave must be one of requests, blocks'
    )
  })

  test('an image pairs with an image, never with a GNES version or the local engine', () => {
    const message = refusal({ baseline: 'paired', 'baseline-image': 'gnes:old', engine: 'local' })
    expect(message).toContain("baseline-image pairs with image: set image to the head's image")
    expect(message).toContain('the local engine runs no images')
    expect(
      refusal({ baseline: 'paired', 'baseline-gnes-version': '0.0.46', image: 'gnes:new' })
    ).toContain(
      "input 'baseline-gnes-version' = '0.0.46': image decides the head's GNES, so a GNES version cannot be its pair: use baseline-image"
    )
  })

  test('one base topology per case, a pairable profile, and at least two pairs', () => {
    const message = refusal({
      baseline: 'paired',
      cases: '1,2',
      'baseline-topology': example(100),
      profiles: 'sweep',
      runs: '1'
    })
    expect(message).toContain('lists 1 files for 2 cases: one base topology per case')
    expect(message).toContain('paired mode pairs runs of the minimal profile (or else burst)')
    expect(message).toContain("input 'runs' = '1': paired mode needs at least 2 runs a side")
  })

  test('a base topology file that does not load is named before anything starts', () => {
    expect(() =>
      checkRun(inputs({ baseline: 'paired', cases: '1', 'baseline-topology': 'missing.yml' }))
    ).toThrow(/missing\.yml/)
  })

  test('pairs each case with its base, the same topology unless another is named', () => {
    const same = checkPairedRun(
      inputs({ baseline: 'paired', 'baseline-gnes-version': '0.0.46', cases: '1' })
    )
    expect(same).toHaveLength(1)
    expect(same[0].base).toBe(same[0].head)
    const two = checkPairedRun(
      inputs({ baseline: 'paired', topology: example(105), 'baseline-topology': example(100) })
    )
    expect(two[0].head.file).toBe(example(105))
    expect(two[0].base.file).toBe(example(100))
  })

  test('the base is provisioned from the base inputs, on the head’s engine', () => {
    const i = inputs({ baseline: 'paired', 'baseline-gnes-version': '0.0.45', engine: 'auto' })
    expect(baseInputs(i, 'local')).toMatchObject({ engine: 'local', 'gnes-version': '0.0.45' })
    const images = inputs({ baseline: 'paired', image: 'gnes:new', 'baseline-image': 'gnes:old' })
    expect(baseInputs(images, 'docker')).toMatchObject({
      image: 'gnes:old',
      'gnes-version': '0.0.47'
    })
  })

  test('both sides get the same offered load: the lower minimal rate, or the burst', () => {
    const [pair] = checkPairedRun(
      inputs({ baseline: 'paired', topology: example(105), 'baseline-topology': example(100) })
    )
    const i = inputs({ baseline: 'paired', 'baseline-gnes-version': '0.0.46' })
    // 0.105 s blocks: half its capacity is 4.76 req/s, below the 0.100 s router's 5.
    const profile = pairedProfile(i, pair.head.topology, pair.base.topology)
    expect(profile.kind).toBe('minimal')
    expect(profile.kind === 'minimal' && profile.rate).toBeCloseTo(4.762, 3)
    expect(
      pairedProfile({ ...i, 'minimal-rate': 2 }, pair.head.topology, pair.base.topology)
    ).toEqual({
      kind: 'minimal',
      rate: 2
    })
    expect(
      pairedProfile({ ...i, profiles: ['burst', 'sweep'] }, pair.head.topology, pair.base.topology)
    ).toEqual({
      kind: 'burst'
    })
  })
})

describe('paired mode with no base named, by event', () => {
  const context = (event: string, pullRequest: WorkflowContext['pullRequest'] = null) => ({
    git: {
      sha: pullRequest?.headSha ?? 'a'.repeat(40),
      ref: null,
      event,
      repository: 'o/r',
      runId: '1',
      serverUrl: null,
      message: null
    },
    apiUrl: null,
    pullRequest
  })
  const here = os.tmpdir()

  it("records a push of README's Quick start exactly as a push of a history-mode workflow", async () => {
    // The Quick start's inputs, as README gives them; the same workflow without `baseline`.
    const workflow = yaml.parse(quickStartWorkflow()) as {
      jobs: Record<string, { steps: { uses?: string; with?: Record<string, string> }[] }>
    }
    const step = Object.values(workflow.jobs)
      .flatMap(j => j.steps)
      .find(s => s.uses?.includes('gnes-latency-bench'))
    const raw: Partial<RawInputs> = { 'out-dir': out, ...step?.with }
    expect(raw.baseline).toBe('paired')
    const history = parseInputs({ ...raw, baseline: 'history' })
    for (const event of ['push', 'workflow_dispatch', 'schedule']) {
      const push = await withPairedBase(raw, context(event), null, here)
      expect(push).toEqual(history)
      expect([push.runs, push.requests, push['alert-threshold']]).toEqual([3, 20, 0.1])
    }
    // Where nothing is recorded either, pre-flight says what paired mode needs.
    const kept = await withPairedBase({ ...raw, record: 'false' }, context('push'), null, here)
    expect(kept.baseline).toBe('paired')
    expect(() => checkRun(kept)).toThrow('paired mode needs a base to measure beside the head')
  })

  it('takes a named base as it is, on any event', async () => {
    const raw = { 'out-dir': out, baseline: 'paired', 'baseline-gnes-version': '0.0.46' }
    expect(await withPairedBase(raw, context('push'), null, here)).toEqual(parseInputs(raw))
  })

  describe('a pull request behind its base branch', () => {
    // master: A, then B (the base branch moved); the pull request: P off A; GitHub's test merge
    // M = B + P (parents B, P), as refs/pull/1/merge.
    const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'paired-behind-'))
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
        cwd: repo,
        encoding: 'utf8'
      }).trim()
    const commit = (file: string, message: string) => {
      fs.writeFileSync(path.join(repo, file), message)
      git('add', '-A')
      git('commit', '-q', '-m', message)
      return git('rev-parse', 'HEAD')
    }
    git('init', '-q', '-b', 'master')
    const a = commit('router.py', 'A')
    git('checkout', '-q', '-b', 'pr')
    const p = commit('README.md', 'P: the pull request changes only the README')
    git('checkout', '-q', 'master')
    const b = commit('router.py', 'B: the base branch makes a router slower')
    git('checkout', '-q', '--detach', b)
    git('merge', '-q', '--no-ff', p, '-m', 'Merge P into master')
    const m = git('rev-parse', 'HEAD')
    const pr = { number: 1, headSha: p, baseRef: 'master', baseSha: b, fork: false }
    const paired = { 'out-dir': out, baseline: 'paired', 'gnes-source': '.' }
    const baseOf = async (dir: string) => {
      const compared = await comparedCommits(dir, pr)
      return withPairedBase(paired, context('pull_request', pr), compared, dir)
    }

    it("measures the test merge beside its first parent, so the base branch's change is on both sides", async () => {
      const compared = await comparedCommits(repo, pr)
      expect(compared).toEqual({
        workspace: 'test-merge',
        merge: m,
        head: p,
        base: b,
        baseRef: 'master'
      })
      expect((await baseOf(repo))['baseline-ref']).toBe(b)
      const line = comparedLine(compared as ComparedCommits)
      expect(line).toContain(`the test merge \`${m.slice(0, 7)}\``)
      expect(line).toContain(`against \`master\` at \`${b.slice(0, 7)}\`, the merge's first parent`)
      // A branch name is the pull request author's text.
      const hostile = comparedLine({
        ...(compared as ComparedCommits),
        baseRef: '<img src=x>[a](b)'
      })
      expect(hostile).not.toMatch(/<img|\]\(/)
    })

    it('measures the head, checked out by its sha, beside its merge-base', async () => {
      const head = fs.mkdtempSync(path.join(os.tmpdir(), 'paired-head-'))
      execFileSync('git', ['clone', '-q', repo, head])
      execFileSync('git', ['checkout', '-q', '--detach', p], { cwd: head })
      expect(await comparedCommits(head, pr)).toEqual({
        workspace: 'head',
        head: p,
        base: a,
        baseRef: 'master'
      })
      expect((await baseOf(head))['baseline-ref']).toBe(a)
    })

    it('refuses a workspace that is neither, naming both commits', async () => {
      const other = fs.mkdtempSync(path.join(os.tmpdir(), 'paired-other-'))
      execFileSync('git', ['clone', '-q', repo, other])
      execFileSync('git', ['checkout', '-q', '--detach', b], { cwd: other })
      const refused = baseOf(other)
      await expect(refused).rejects.toThrow(InputError)
      await expect(refused).rejects.toThrow(
        `the workspace holds commit ${b}, which is neither the pull request's head ${p} nor GitHub's merge of it`
      )
      await expect(baseOf(fs.mkdtempSync(path.join(os.tmpdir(), 'paired-none-')))).rejects.toThrow(
        'holds no git checkout'
      )
    })

    it('names the base of a shallow test merge, and asks for its history', async () => {
      const shallow = fs.mkdtempSync(path.join(os.tmpdir(), 'paired-shallow-'))
      git('update-ref', 'refs/pull/1/merge', m)
      execFileSync('git', ['init', '-q', shallow])
      const inShallow = (...args: string[]) => execFileSync('git', args, { cwd: shallow })
      inShallow('fetch', '-q', '--depth', '1', `file://${repo}`, 'refs/pull/1/merge')
      inShallow('checkout', '-q', '--detach', 'FETCH_HEAD')
      expect(await comparedCommits(shallow, pr)).toMatchObject({ workspace: 'test-merge', base: b })
      await expect(baseOf(shallow)).rejects.toThrow(
        `the test merge's base ${b} is not in the checkout at ${shallow}; check out with fetch-depth: 0`
      )
    })
  })
})
