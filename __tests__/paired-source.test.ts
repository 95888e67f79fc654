/**
 * Integration: a GNES pull request on the local engine. The workspace is a GNES repository (two
 * commits: the 0.0.46 and 0.0.47 source trees from PyPI); the head is installed from the
 * workspace (`gnes-source`), the base from its parent commit (`baseline-ref`) checked out beside
 * it, each into a venv keyed by its tree's content. The first run builds both (a few minutes).
 *
 * @side-by-side: what pip installed from which commit, the pairs' order, and what is left; no
 * figure and no verdict.
 */
import { randomUUID } from 'node:crypto'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { checkInputs } from '../src/config/preflight'
import { parseInputs } from '../src/config/inputs'
import { readGnesSource } from '../src/engine/source-tree'
import type { Log } from '../src/log'
import { orderLetters } from '../src/client/interleave'
import { runPairedSuite } from '../src/pipeline/suite/paired'
import { gitIn, gnesRepository } from './helpers/gnes-repo'
import { survivors } from './helpers/processes'
import { expectStorableResult } from './helpers/result'
import { tmp } from './helpers/tmp'

const recording = (lines: string[]): Log => ({
  info: m => lines.push(m),
  warn: m => lines.push(`warning: ${m}`),
  group: async (name, work) => {
    lines.push(`== ${name}`)
    return work()
  }
})

describe('gnes-source: GNES built from a source tree', () => {
  it('keys a tree by its content: build output and .git do not count, an edit does, a dirty tree has no commit', () => {
    const dir = tmp('gnes-src-')
    fs.writeFileSync(path.join(dir, 'setup.py'), 'print(1)\n')
    fs.mkdirSync(path.join(dir, 'gnes'))
    fs.writeFileSync(path.join(dir, 'gnes', '__init__.py'), "__version__ = '0.0.47'\n")
    const first = readGnesSource(dir)
    expect(first.commit).toBeNull()
    for (const junk of ['build', 'gnes.egg-info', '.git', path.join('gnes', '__pycache__')]) {
      fs.mkdirSync(path.join(dir, junk), { recursive: true })
      fs.writeFileSync(path.join(dir, junk, 'x'), 'x')
    }
    expect(readGnesSource(dir).hash).toBe(first.hash)
    fs.writeFileSync(path.join(dir, 'gnes', '__init__.py'), "__version__ = '0.0.48'\n")
    expect(readGnesSource(dir).hash).not.toBe(first.hash)
    fs.renameSync(path.join(dir, 'gnes', '__init__.py'), path.join(dir, 'gnes', 'init.py'))
    expect(readGnesSource(dir).hash).not.toBe(first.hash)
  })

  it('is refused before anything starts beside an image, and without a setup.py, on any engine', () => {
    const notGnes = tmp('not-gnes-')
    const check = (raw: Record<string, string>) => () => checkInputs(parseInputs(raw))
    expect(check({ 'gnes-source': notGnes, engine: 'docker' })).toThrow(
      `input 'gnes-source' = '${notGnes}': no setup.py there: a GNES source tree is expected`
    )
    expect(check({ 'gnes-source': notGnes, image: 'gnes/gnes:v0.0.47' })).toThrow(
      'image and gnes-source both say where GNES comes from; set one'
    )
    expect(check({ 'gnes-source': notGnes })).toThrow(
      `input 'gnes-source' = '${notGnes}': no setup.py there: a GNES source tree is expected`
    )
  })

  it('a GNES pull request, paired on the local engine: head from the workspace, base from its parent commit, both from source', async () => {
    const repo = await gnesRepository(['0.0.46', '0.0.47'])
    const [baseCommit, headCommit] = repo.commits
    const [suiteId, baseSuiteId] = [randomUUID(), randomUUID()]
    const lines: string[] = []
    const inputs = parseInputs({
      baseline: 'paired',
      'gnes-source': repo.dir,
      'baseline-ref': baseCommit,
      cases: '1',
      engine: 'local',
      profiles: 'minimal',
      runs: '2',
      'max-pairs': '2',
      requests: '5',
      'warmup-requests': '3',
      'doc-bytes': '1000',
      'out-dir': tmp('gnes-paired-source-')
    })
    checkInputs(inputs)
    const paired = await runPairedSuite(inputs, {
      log: recording(lines),
      suiteId,
      baseSuiteId,
      workspace: repo.dir
    })

    expectStorableResult(paired.head)
    expectStorableResult(paired.base)
    // What pip installed from each tree, and which tree it was.
    const hash = readGnesSource(repo.dir).hash.slice(0, 12)
    expect(paired.head.meta.gnes).toMatchObject({
      version: '0.0.47',
      tag: `source-${hash}`,
      vcs: headCommit
    })
    expect(paired.base.meta.gnes).toMatchObject({ version: '0.0.46', vcs: baseCommit })
    expect(paired.base.meta.git.sha).toBe(baseCommit)
    expect(orderLetters(paired.order)).toBe('ABBA')
    expect(lines.filter(l => l.startsWith('engine: '))).toEqual([
      'engine: local processes on loopback (engine input local)',
      `engine: gnes-source ${repo.dir} is installed into a venv`,
      'engine: local processes on loopback (engine input local)',
      expect.stringMatching(/^engine: gnes-source .*gnes-latency-bench-base-/)
    ])
    // The build happened in a copy: the workspace is as checked out, and the base's worktree is gone.
    expect(gitIn(repo.dir, 'status', '--porcelain')).toBe('')
    expect(gitIn(repo.dir, 'worktree', 'list').split('\n')).toHaveLength(1)
    expect(await survivors('GNES_BENCH_SUITE', suiteId, 2000)).toEqual([])
    expect(await survivors('GNES_BENCH_SUITE', baseSuiteId, 2000)).toEqual([])

    // A second run of the pull request reuses both venvs: nothing is provisioned again.
    const again: string[] = []
    await runPairedSuite({ ...inputs, runs: 2 }, { log: recording(again), workspace: repo.dir })
    expect(again.filter(l => l.startsWith('provisioning'))).toEqual([])
    expect(lines.filter(l => l.startsWith('provisioning GNES from'))).toHaveLength(2)
  })
})
