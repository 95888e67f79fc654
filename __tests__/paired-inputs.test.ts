/**
 * Paired mode's inputs: parsed by the one schema, and an incomplete or contradictory pair refused
 * by the pre-flight before anything is installed or started.
 */
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { withPairedBase } from '../src/action/paired-base'
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
      sha: 'a'.repeat(40),
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

  it('records a push alone, so one workflow serves pushes and pull requests', async () => {
    const paired = inputs({ baseline: 'paired', 'gnes-source': '.' })
    expect((await withPairedBase(paired, context('push'))).baseline).toBe('history')
    expect((await withPairedBase(paired, context('workflow_dispatch'))).baseline).toBe('history')
    // Where nothing is recorded either, pre-flight says what paired mode needs.
    const kept = await withPairedBase({ ...paired, record: 'false' }, context('push'))
    expect(kept.baseline).toBe('paired')
    expect(() => checkRun(kept)).toThrow('paired mode needs a base to measure beside the head')
  })

  it('takes a named base as it is, on any event', async () => {
    const named = inputs({ baseline: 'paired', 'baseline-gnes-version': '0.0.46' })
    expect(await withPairedBase(named, context('push'))).toEqual(named)
  })

  it('refuses a pull request whose merge-base is not in the checkout', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paired-shallow-'))
    const pr = { number: 1, baseRef: 'main', baseSha: 'b'.repeat(40) }
    process.env.GITHUB_WORKSPACE = dir
    try {
      await expect(
        withPairedBase(
          inputs({ baseline: 'paired', 'gnes-source': '.' }),
          context('pull_request', pr)
        )
      ).rejects.toThrow("this pull request's merge-base is not in the checkout")
    } finally {
      delete process.env.GITHUB_WORKSPACE
    }
  })
})
