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
  // Made as the tests start: a file whose tests are all skipped runs no afterAll to remove them.
  let twin: RunnerTwin
  let repo: string
  const history = () =>
    readBranchHistory({ repo: twin.remote, branch: 'gh-pages', dir: 'benchmarks' })
  /** The check runs on a pull request's head: every workflow here is `Latency`, job `latency`. */
  const checksOn = (head: string) =>
    twin.github.checkRuns
      .filter(c => c.head_sha === head)
      .map(c => ({ name: c.name, conclusion: c.conclusion }))

  beforeAll(async () => {
    twin = new RunnerTwin()
    // The GNES repository: 0.0.47's source tree and the Quick start's workflow, on master.
    repo = (await gnesRepository(['0.0.47'])).dir
    // Beside it, for the pull request behind master, the same workflow held to one look of 4
    // pairs, checking out the test merge or the pull request's head. What is checked there is
    // the base: judged beside the wrong commit, the base branch's +10 % (two routers 1 ms slower
    // on a 20 ms path) would be called a change, since 4 pairs spreading even 5 % put the 95 %
    // interval's half-width at 8 %.
    const quickStart = quickStartWorkflow()
    const checkout = 'with: { fetch-depth: 0 }'
    const profiles = '          profiles: minimal\n'
    expect(quickStart).toContain(checkout)
    expect(quickStart).toContain(profiles)
    const behind = quickStart.replace(
      profiles,
      `${profiles}          runs: 4\n          max-pairs: 4\n`
    )
    await twin.start(repo, {
      'latency.yml': quickStart,
      'latency-behind.yml': behind,
      'latency-head.yml': behind.replace(
        checkout,
        "with: { fetch-depth: 0, ref: '${{ github.event.pull_request.head.sha }}' }"
      )
    })
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
    // Recorded as a history-mode workflow's push: 3 runs of 20 requests, not paired mode's sizes.
    expect(run.log).toMatch(
      /minimal load \(paced, 5 req\/s\): (\d+ warm-up requests, then )?3 runs of 20 requests/
    )
    // The post step keeps what every later job builds on.
    expect(run.log).toMatch(
      /cache: saved .*images as gnes-latency-bench-2-linux-x64-auto-gnes-deps-/
    )
    expect((await history()).map(e => [seriesKey(e), e.commit.sha])).toEqual([
      ['1/minimal@5', twin.master]
    ])
  })

  it(
    'on a pull request that makes the routers 1 ms slower, comments a regression',
    async () => {
      const run = await twin.pullRequest(repo, 2, 'slow', slowRouters(1))
      const [comment] = twin.github.comments.get(2) ?? []
      expect(comment.body).toMatch(/🔴 regression in 1 case/)
      expect(run.log).toMatch(/Job succeeded/)
      // The verdict as a check run on the pull request's head (not its test merge).
      expect(checksOn(run.head)).toEqual([
        { name: 'latency / Latency / latency', conclusion: 'failure' }
      ])
      expect(checksOn(run.merge)).toEqual([])
    },
    PR_TIMEOUT
  )

  // A busy repository: the pull request forked, then master got a commit making every router
  // 1 ms slower. Only the pull request's own change may be judged, whichever commit is checked out.
  describe('a pull request behind master, which has since made the routers 1 ms slower', () => {
    let forked: string
    let moved: string
    /** The check of a pull request that changes nothing: success, or neutral where it cannot tell. */
    const unchangedCheck = (comment: string) => ({
      name: 'latency / Latency / latency',
      conclusion: /paired on this runner: 🟡 inconclusive/.test(comment) ? 'neutral' : 'success'
    })
    const noNotes = (dir: string) => fs.writeFileSync(path.join(dir, 'NOTES.md'), 'notes\n')
    beforeAll(() => {
      forked = twin.master
      moved = twin.advance(repo, 'routers: 1 ms of work each', slowRouters(1))
    })

    it(
      "checked out as GitHub's test merge: judged beside master as the merge sees it, so it changes nothing; loads the deps image from the Actions cache",
      async () => {
        const run = await twin.pullRequest(repo, 1, 'docs', noNotes, {
          from: forked,
          workflow: 'latency-behind.yml'
        })
        expect(run.log).toMatch(/Job succeeded/)
        expect(run.log).toContain(
          `the workspace is the test merge ${run.merge}; the base is its first parent, ${moved}`
        )
        expect(run.log).toMatch(/cache: restored gnes-latency-bench-2-linux-x64-auto-gnes-deps-/)
        expect(run.log).toMatch(
          /using gnes-latency-bench\/gnes-deps:\w+ \(loaded from its archive\)/
        )
        expect(run.log).not.toMatch(/building gnes-latency-bench\/gnes-deps/)
        expect(run.log).toMatch(/Building wheel for gnes/)
        const [comment] = twin.github.comments.get(1) ?? []
        expect(comment.body).toContain(
          `Compared: the test merge \`${run.merge.slice(0, 7)}\` (head \`${run.head.slice(0, 7)}\` merged into \`master\`) against \`master\` at \`${moved.slice(0, 7)}\``
        )
        // The headline's answer: the base branch's slower routers are on both sides.
        expect(comment.body).toMatch(/paired on this runner: (⚪ no change|🟡 inconclusive)/)
        expect(comment.body).not.toMatch(/🔴/)
        expect(checksOn(run.head)).toEqual([unchangedCheck(comment.body)])
      },
      PR_TIMEOUT
    )

    it(
      'checked out at its head (ref: the head sha): judged beside its merge-base, the same answer',
      async () => {
        const run = await twin.pullRequest(repo, 3, 'docs-head', noNotes, {
          from: forked,
          workflow: 'latency-head.yml'
        })
        expect(run.log).toMatch(/Job succeeded/)
        expect(run.log).toContain(
          `the workspace is the pull request's head ${run.head}; the base is its merge-base with master, ${forked}`
        )
        const [comment] = twin.github.comments.get(3) ?? []
        expect(comment.body).toContain(
          `Compared: the pull request's head \`${run.head.slice(0, 7)}\`, checked out itself, against \`${forked.slice(0, 7)}\``
        )
        // The headline's answer: the base branch's slower routers are on both sides.
        expect(comment.body).toMatch(/paired on this runner: (⚪ no change|🟡 inconclusive)/)
        expect(comment.body).not.toMatch(/🔴/)
        expect(checksOn(run.head)).toEqual([unchangedCheck(comment.body)])
      },
      PR_TIMEOUT
    )
  })
})
