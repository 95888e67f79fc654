/**
 * The runner twin (helpers/runner-twin.ts) on README's Quick start for a GNES repository: its
 * workflow text taken from README.md, run by act on pushes and pull requests as GitHub runs them.
 */
import * as fs from 'node:fs'
import * as path from 'node:path'
import { readBranchHistory } from '../src/history'
import { seriesKey } from '../src/history/schema'
import { describeDocker } from './helpers/docker'
import { gnesRepository, slowRouters } from './helpers/gnes-repo'
import { quickStartWorkflow } from './helpers/readme'
import { RunnerTwin } from './helpers/runner-twin'

/** A pull request's job: its builds, and pairs for up to the whole budget on a busy machine. */
const PR_TIMEOUT = 25 * 60_000

describeDocker('the runner twin: README’s Quick start under act, as GitHub runs it', () => {
  const twin = new RunnerTwin()
  let repo: string
  const history = () =>
    readBranchHistory({ repo: twin.remote, branch: 'gh-pages', dir: 'benchmarks' })

  beforeAll(async () => {
    // The GNES repository: 0.0.47's source tree and the Quick start's workflow, on master.
    repo = (await gnesRepository(['0.0.47'])).dir
    await twin.start(repo, quickStartWorkflow())
  })
  afterAll(() => twin.close())

  it('on a push to master, builds GNES from the checkout on the compiler-less base and records it on gh-pages', async () => {
    const run = await twin.push(repo)
    expect(run.log).toMatch(/Job succeeded/)
    expect(run.code).toBe(0)
    // No GNES image to find: the build installs a compiler in its build stage and compiles GNES.
    expect(run.log).toMatch(/engine: docker/)
    expect(run.log).toMatch(
      /building gnes-latency-bench\/gnes-source:\w+ \(GNES from .* on python:3\.11-slim\)/
    )
    expect(run.log).toMatch(/building gnes-latency-bench\/gnes-deps:\w+ \(the compiler/)
    expect(run.log).toMatch(/Building wheel for gnes/)
    expect(run.log).not.toMatch(/built before|loaded from its archive/)
    expect(run.log).toMatch(/recorded alone/)
    // The post step keeps what every later job builds on.
    expect(run.log).toMatch(
      /cache: saved .*images as gnes-latency-bench-2-linux-x64-auto-gnes-deps-/
    )
    expect((await history()).map(e => [seriesKey(e), e.commit.sha])).toEqual([
      ['1/minimal@5', twin.master]
    ])
  })

  it(
    'on a pull request that changes nothing GNES runs, on a fresh runner: loads the deps image from the Actions cache, compiles only GNES, comments without a regression',
    async () => {
      const run = await twin.pullRequest(repo, 1, 'docs', dir =>
        fs.writeFileSync(path.join(dir, 'NOTES.md'), 'notes\n')
      )
      expect(run.log).toMatch(/Job succeeded/)
      expect(run.log).toMatch(/the base is the pull request's merge-base/)
      expect(run.log).toMatch(/cache: restored gnes-latency-bench-2-linux-x64-auto-gnes-deps-/)
      expect(run.log).toMatch(/using gnes-latency-bench\/gnes-deps:\w+ \(loaded from its archive\)/)
      expect(run.log).not.toMatch(/building gnes-latency-bench\/gnes-deps/)
      expect(run.log).toMatch(/Building wheel for gnes/)
      const [comment] = twin.github.comments.get(1) ?? []
      expect(comment.body).toMatch(/gnes-latency-bench/)
      expect(comment.body).not.toMatch(/🔴|regression in/)
      expect(comment.body).toMatch(/no change|inconclusive/)
    },
    PR_TIMEOUT
  )

  it(
    'on a pull request that makes the routers 1 ms slower, comments a regression',
    async () => {
      const run = await twin.pullRequest(repo, 2, 'slow', slowRouters(1))
      const [comment] = twin.github.comments.get(2) ?? []
      expect(comment.body).toMatch(/🔴 regression in 1 case/)
      expect(run.log).toMatch(/Job succeeded/)
    },
    PR_TIMEOUT
  )
})
