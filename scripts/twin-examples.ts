/**
 * The example workflows (workflows/*.yml) under the runner twin (__tests__/helpers/runner-twin.ts),
 * each on the event(s) it listens to, in a repository of the kind it is written for, as a user
 * copying it meets it; then checks what it should leave: entries on gh-pages, a comment on the
 * pull request, an artifact. Prints per workflow each act run's exit, wall time and load average
 * before and after, and the checks passed and failed; exits 1 when any check fails.
 *
 *   npm run twin:examples [-- names…]   (default: every example, cheapest first)
 *
 * Not a jest suite: the four-case examples take many minutes each. Needs the Docker set-up of
 * scripts/docker-setup.sh and act (docs/development.md).
 */
import * as fs from 'node:fs'
import * as path from 'node:path'
import { readBranchHistory } from '../src/history'
import { checkName } from '../src/report/check-text'
import {
  gnesEdits,
  gnesRepository,
  gitIn,
  slowRouters,
  touch
} from '../__tests__/helpers/gnes-repo'
import { PROJECT } from '../__tests__/helpers/project'
import {
  loadText,
  RunnerTwin,
  type ActRun,
  type PullRequestRun
} from '../__tests__/helpers/runner-twin'
import {
  RELAY_TOPOLOGY,
  servicesRepository,
  slowerRelay2
} from '../__tests__/helpers/services-repo'

interface Check {
  what: string
  ok: boolean
}

interface Outcome {
  runs: { label: string; run: ActRun }[]
  checks: Check[]
}

const BRANCH = 'main'
const workflow = (name: string) =>
  fs.readFileSync(path.join(PROJECT, 'workflows', `${name}.yml`), 'utf8')

const succeeded = (label: string, run: ActRun): Check => ({
  what: `${label}: act exit 0, job succeeded`,
  ok: run.code === 0 && /Job succeeded/.test(run.log)
})

/** fail-on-regression: the job fails on the regression it reports, and on nothing else. */
const failsOnRegression = (label: string, run: ActRun): Check => ({
  what: `${label}: the job fails on the regression (fail-on-regression)`,
  ok:
    run.code !== 0 &&
    /latency regression found \(fail-on-regression is on\)/.test(run.log) &&
    (run.log.match(/❗\s+::error::/g) ?? []).length === 1
})

/** The report artifact a pull-request workflow uploads, or '' when there is none. */
function reportArtifact(twin: RunnerTwin, run: ActRun): string {
  const file = path.join(twin.artifacts, String(run.runId), 'gnes-latency-report', 'report.md')
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : ''
}

/** A twin of `repo` (its default branch renamed to main, as the examples expect) with `names`. */
async function twinOf(repo: string, names: string[]): Promise<RunnerTwin> {
  gitIn(repo, 'branch', '-M', BRANCH)
  const twin = new RunnerTwin()
  await twin.start(repo, Object.fromEntries(names.map(n => [`${n}.yml`, workflow(n)])), BRANCH)
  return twin
}

const gnesMain = async () => (await gnesRepository(['0.0.47'])).dir

/** The comments on pull request `number`: one, opening with the action's marker. */
function commented(twin: RunnerTwin, number: number): Check[] {
  const comments = twin.github.comments.get(number) ?? []
  return [
    { what: `one comment on #${number}`, ok: comments.length === 1 },
    {
      what: 'it is the action’s report',
      ok: /^<!-- gnes-latency-bench -->/.test(comments[0]?.body ?? '')
    }
  ]
}

async function prPairedServices(): Promise<Outcome> {
  const repo = servicesRepository({ 'bench/chain.yml': RELAY_TOPOLOGY })
  const twin = await twinOf(repo, ['pr-paired-services'])
  try {
    const run = await twin.pullRequest(repo, 1, 'slow', slowerRelay2(1))
    const body = twin.github.comments.get(1)?.[0]?.body ?? ''
    const checks = [
      failsOnRegression('pull request', run),
      ...commented(twin, 1),
      {
        what: 'relay2 1 ms slower: a regression naming hop:relay2',
        ok: /🔴 regression/.test(body) && /hop:relay2/.test(body)
      },
      { what: 'the report artifact is uploaded', ok: reportArtifact(twin, run) !== '' }
    ]
    return { runs: [{ label: 'pull_request', run }], checks }
  } finally {
    twin.close()
  }
}

/**
 * The check run pr-comment-fork creates where the fork's read-only token could not: one on the pull
 * request's head (none on its test merge), named as the job names its own (`check-run` input), its
 * conclusion and title those of the report's check line, the conclusion `verdict`'s.
 */
function forkCheckRun(
  twin: RunnerTwin,
  pull: PullRequestRun,
  report: string,
  verdict: { key: string; conclusion: 'success' | 'failure' | 'neutral' }
): Check[] {
  const onHead = twin.github.checkRuns.filter(c => c.head_sha === pull.head)
  const name = checkName(verdict.key)
  const line = /^<!-- check: (\w+); (.+) -->$/.exec(report.split('\n')[1] ?? '')
  return [
    {
      what: `one check run on the fork's head ${pull.head.slice(0, 7)}, none on its test merge`,
      ok: onHead.length === 1 && !twin.github.checkRuns.some(c => c.head_sha === pull.merge)
    },
    { what: `it is named ${name}`, ok: onHead[0]?.name === name },
    {
      what: `its conclusion is ${verdict.conclusion}, the verdict's, as the report's check line says`,
      ok: onHead[0]?.conclusion === verdict.conclusion && line?.[1] === verdict.conclusion
    },
    {
      what: 'its title is the check line’s',
      ok: line !== null && onHead[0]?.output.title === line[2]
    }
  ]
}

/** pr-paired-services on a pull request from a fork, then pr-comment-fork on its completion. */
async function prCommentFork(): Promise<Outcome> {
  const repo = servicesRepository({ 'bench/chain.yml': RELAY_TOPOLOGY })
  const twin = await twinOf(repo, ['pr-paired-services', 'pr-comment-fork'])
  try {
    const pull: PullRequestRun = await twin.pullRequest(repo, 3, 'slow', slowerRelay2(1), {
      fork: 'forker'
    })
    const report = reportArtifact(twin, pull)
    const before = twin.github.comments.get(3)?.length ?? 0
    const comment = await twin.workflowRun(pull, 'Latency (services, PR, paired)', {
      workflow: 'pr-comment-fork.yml'
    })
    const checks = [
      failsOnRegression('fork pull request', pull),
      { what: 'the fork’s read-only token left no comment', ok: before === 0 },
      { what: 'the report artifact is uploaded', ok: report !== '' },
      succeeded('workflow_run', comment),
      ...commented(twin, 3),
      {
        what: 'the comment is the artifact’s report',
        ok: twin.github.comments.get(3)?.[0]?.body === report
      },
      // relay2 1 ms slower is a regression: the check fails, as a same-repository run's would.
      ...forkCheckRun(twin, pull, report, {
        key: 'Latency (services, PR, paired) / bench',
        conclusion: 'failure'
      })
    ]
    return {
      runs: [
        { label: 'pull_request (fork)', run: pull },
        { label: 'workflow_run', run: comment }
      ],
      checks
    }
  } finally {
    twin.close()
  }
}

/** Four commits after 0.0.47's tree, the third holding every router 1 ms; bisected by hand. */
async function bisect(): Promise<Outcome> {
  const edits = await gnesEdits('0.0.47', [touch(1), slowRouters(1), touch(3)])
  const culprit = edits.commits[2]
  const twin = await twinOf(edits.dir, ['bisect'])
  try {
    const run = await twin.dispatch({ good: edits.commits[0], bad: twin.master, case: '1' })
    const file = path.join(twin.artifacts, String(run.runId), 'bisect', 'bisect.md')
    const summary = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : ''
    const checks = [
      succeeded('workflow_dispatch', run),
      {
        what: `the summary names the slowed commit (${culprit.slice(0, 7)}) the first slow one`,
        // A link to the commit where the repository's address is https, else the short sha alone.
        ok: new RegExp(
          `^## Bisect: .* the first slow commit is \\[?\`${culprit.slice(0, 7)}\``
        ).test(summary)
      }
    ]
    return { runs: [{ label: 'workflow_dispatch', run }], checks }
  } finally {
    twin.close()
  }
}

async function prPaired(): Promise<Outcome> {
  const repo = await gnesMain()
  const twin = await twinOf(repo, ['pr-paired'])
  try {
    const run = await twin.pullRequest(repo, 1, 'docs', dir =>
      fs.writeFileSync(path.join(dir, 'NOTES.md'), 'notes\n')
    )
    const body = twin.github.comments.get(1)?.[0]?.body ?? ''
    const checks = [
      succeeded('pull request', run),
      ...commented(twin, 1),
      {
        what: 'an unchanged pull request is no regression',
        ok: body !== '' && !/🔴|regression in/.test(body)
      },
      { what: 'the report artifact is uploaded', ok: reportArtifact(twin, run) !== '' }
    ]
    return { runs: [{ label: 'pull_request', run }], checks }
  } finally {
    twin.close()
  }
}

/** The history on gh-pages holds cases 1–4 of `sha`, with `ref`. */
async function recorded(twin: RunnerTwin, sha: string, ref: string): Promise<Check[]> {
  const entries = await readBranchHistory({
    repo: twin.remote,
    branch: 'gh-pages',
    dir: 'benchmarks'
  }).catch(() => [])
  const of = entries.filter(e => e.commit.sha === sha)
  return [
    {
      what: `gh-pages holds cases 1, 2, 3, 4 of ${sha.slice(0, 7)}`,
      ok: ['1', '2', '3', '4'].every(c => of.some(e => e.caseId === c))
    },
    { what: `their ref is ${ref}`, ok: of.length > 0 && of.every(e => e.commit.ref === ref) }
  ]
}

/** One recording example on its event. */
function recording(
  name: string,
  event: (twin: RunnerTwin, repo: string) => Promise<ActRun>,
  ref: string
) {
  return async (): Promise<Outcome> => {
    const repo = await gnesMain()
    const twin = await twinOf(repo, [name])
    try {
      const run = await event(twin, repo)
      const checks = [succeeded(name, run), ...(await recorded(twin, twin.master, ref))]
      return { runs: [{ label: name, run }], checks }
    } finally {
      twin.close()
    }
  }
}

/** record-push records master's head; pr-compare then compares a pull request with it. */
async function prCompare(): Promise<Outcome> {
  const repo = await gnesMain()
  const twin = await twinOf(repo, ['record-push', 'pr-compare'])
  try {
    const push = await twin.push(repo, { workflow: 'record-push.yml' })
    const run = await twin.pullRequest(
      repo,
      1,
      'docs',
      dir => fs.writeFileSync(path.join(dir, 'NOTES.md'), 'notes\n'),
      {
        workflow: 'pr-compare.yml'
      }
    )
    const body = twin.github.comments.get(1)?.[0]?.body ?? ''
    const checks = [
      succeeded('record-push', push),
      succeeded('pull request', run),
      ...commented(twin, 1),
      {
        what: 'the comment compares with the recorded baseline',
        ok: body.includes(twin.master.slice(0, 7))
      },
      { what: 'the report artifact is uploaded', ok: reportArtifact(twin, run) !== '' },
      // The pull request changes nothing GNES runs: whatever else it says, it is no regression.
      { what: 'the unchanged pull request is no regression', ok: !body.includes('🔴') }
    ]
    // The answers and how each case allowed for drift between jobs, for the figures.
    for (const line of body.split('\n').filter(l => /^- (\*\*|Case )/.test(l))) console.log(line)
    return {
      runs: [
        { label: 'push (record-push)', run: push },
        { label: 'pull_request', run }
      ],
      checks
    }
  } finally {
    twin.close()
  }
}

/** Cheapest first. */
const EXAMPLES: Record<string, () => Promise<Outcome>> = {
  'pr-paired-services': prPairedServices,
  'pr-comment-fork': prCommentFork,
  bisect,
  'pr-paired': prPaired,
  'record-push': recording('record-push', (twin, repo) => twin.push(repo), `refs/heads/${BRANCH}`),
  'record-release': recording(
    'record-release',
    (twin, repo) => twin.release(repo, 'v0.0.47-twin'),
    'refs/tags/v0.0.47-twin'
  ),
  scheduled: recording('scheduled', twin => twin.schedule(), `refs/heads/${BRANCH}`),
  'pr-compare': prCompare
}

function print(name: string, o: Outcome): void {
  console.log(`\n== ${name}`)
  for (const { label, run } of o.runs) {
    console.log(
      `  ${label}: act exit ${run.code}, ${run.seconds} s, load average ${loadText(run.loadBefore)} → ${loadText(run.loadAfter)}`
    )
  }
  for (const c of o.checks) console.log(`  ${c.ok ? 'pass' : 'FAIL'}: ${c.what}`)
}

async function main(): Promise<void> {
  const names = process.argv.slice(2)
  const unknown = names.filter(n => !(n in EXAMPLES))
  if (unknown.length)
    throw new Error(`no example ${unknown.join(', ')}; known: ${Object.keys(EXAMPLES).join(', ')}`)
  let failed = 0
  for (const name of names.length ? names : Object.keys(EXAMPLES)) {
    const outcome = await EXAMPLES[name]().catch((e: Error): Outcome => ({
      runs: [],
      checks: [{ what: `ran: ${e.message}`, ok: false }]
    }))
    print(name, outcome)
    failed += outcome.checks.filter(c => !c.ok).length
  }
  console.log(`\n${failed ? `${failed} check(s) failed` : 'every check passed'}`)
  process.exitCode = failed ? 1 : 0
}

void main()
