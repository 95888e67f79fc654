import * as core from '@actions/core'
import { randomUUID } from 'node:crypto'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { actionInputs } from './action/inputs'
import { fetchBranchIntoWorkspace } from './action/local-branch'
import { actionsLog } from './action/log'
import { mergeBase } from './action/merge-base'
import { publishPullRequestReport } from './action/publish'
import { runIdKeeper, STATE_ENGINE } from './action/state'
import { actionTargets, type ActionTargets } from './action/targets'
import { InputError, parseInputs, type Inputs } from './config/inputs'
import { selectEngine } from './engine/select'
import { readBranchHistory, shouldRecord } from './history'
import {
  comparePairedRun,
  compareWithHistory,
  describeLocation,
  engineSettings,
  preflight,
  recordResult,
  runPairedSuite,
  runSuite,
  writeResult,
  type HistoryLocation,
  type PairedRun
} from './pipeline'
import { jobSummary } from './render'
import type { CaseVerdict } from './report/verdict'
import type { Result } from './result/schema'
import { workflowContext, type WorkflowContext } from './result/context'

/** With `auto-push: false` the history commit lands on the workspace's branch, unpushed. */
async function recordTarget(inputs: Inputs, targets: ActionTargets): Promise<HistoryLocation> {
  const { history } = targets
  if (inputs['auto-push']) return history
  const workspace = process.env.GITHUB_WORKSPACE ?? process.cwd()
  await fetchBranchIntoWorkspace(workspace, history.repo, history.branch, history.token)
  actionsLog.info(
    `auto-push is false: committing to ${history.branch} in ${workspace}; push it yourself`
  )
  return { ...history, repo: workspace }
}

/** Pull requests: compare against the baseline in the history and publish the verdict. */
async function comparePullRequest(
  result: Result,
  inputs: Inputs,
  pr: NonNullable<WorkflowContext['pullRequest']>,
  targets: ActionTargets
): Promise<void> {
  const history = await core.group(`Read the history on ${targets.history.branch}`, () =>
    readBranchHistory(targets.history)
  )
  const head = result.meta.git.sha
  const workspace = process.env.GITHUB_WORKSPACE
  const base = pr.baseSha && head && workspace ? await mergeBase(workspace, pr.baseSha, head) : null
  const { comparison, markdown } = compareWithHistory(
    result,
    history,
    { threshold: inputs['alert-threshold'], baseRef: pr.baseRef, mergeBaseSha: base ?? pr.baseSha },
    { dashboardUrl: targets.dashboardUrl, repositoryUrl: targets.repositoryUrl }
  )
  await publish({ ...comparison, markdown }, inputs, targets, pr.number)
}

/**
 * Paired mode: the verdict of head against base, both measured in this job, on every event (a
 * release paired with the previous GNES is judged too); the comment only on pull requests. The
 * base's result is kept beside the head's for inspection, never recorded.
 */
async function reportPaired(
  paired: PairedRun,
  inputs: Inputs,
  ctx: WorkflowContext,
  targets: ActionTargets
): Promise<void> {
  writeResult(paired.base, path.join(inputs['out-dir'], 'base'))
  const { comparison, markdown } = comparePairedRun(
    paired,
    { threshold: inputs['alert-threshold'] },
    { dashboardUrl: targets.dashboardUrl, repositoryUrl: targets.repositoryUrl }
  )
  await publish({ ...comparison, markdown }, inputs, targets, ctx.pullRequest?.number ?? null)
}

/** The verdict's report, outputs and exit status; the comment only on a pull request. */
async function publish(
  verdict: { regression: boolean; verdicts: CaseVerdict[]; markdown: string },
  inputs: Inputs,
  targets: ActionTargets,
  pullRequest: number | null
): Promise<void> {
  await publishPullRequestReport({
    comparison: verdict,
    markdown: verdict.markdown,
    reportPath: targets.reportPath,
    failOnRegression: inputs['fail-on-regression'],
    onInconclusive: inputs['on-inconclusive'],
    comment:
      pullRequest !== null && inputs['comment-on-pr'] && targets.comment
        ? { ...targets.comment, issueNumber: pullRequest }
        : null
  })
}

/**
 * A pull request in paired mode with no base named measures its merge-base: the commit checked
 * out beside the workspace is the base (`baseline-ref`). Without the merge-base in the checkout
 * (a shallow clone) that is an error saying how to get it.
 */
async function withPullRequestBase(inputs: Inputs, ctx: WorkflowContext): Promise<Inputs> {
  const named =
    inputs['baseline-gnes-version'] ??
    inputs['baseline-image'] ??
    inputs['baseline-topology'] ??
    inputs['baseline-ref']
  if (inputs.baseline !== 'paired' || !ctx.pullRequest || named !== null) return inputs
  const workspace = process.env.GITHUB_WORKSPACE ?? process.cwd()
  const head = ctx.git.sha
  const base = ctx.pullRequest.baseSha
  const sha = base && head ? await mergeBase(workspace, base, head) : null
  if (!sha) {
    throw new InputError(
      `Invalid input:\n  input 'baseline' = 'paired': this pull request's merge-base is not in the checkout at ${workspace}; check out with fetch-depth: 0, or name the base with baseline-ref, baseline-gnes-version, baseline-image or baseline-topology`
    )
  }
  actionsLog.info(`paired mode: the base is the pull request's merge-base, ${sha}`)
  return { ...inputs, 'baseline-ref': sha }
}

/** The action's main step: inputs and the workflow in, outputs, summary and history out. */
export async function run(): Promise<void> {
  const ctx = workflowContext()
  const inputs = await withPullRequestBase(parseInputs(actionInputs()), ctx)
  const targets = actionTargets(inputs, ctx)
  const record = shouldRecord(inputs.record, ctx.git.event)
  const paired = inputs.baseline === 'paired'
  // Pull requests in history mode read the history and other events may write it: reach it
  // before the suite. A paired pull request measures its baseline itself.
  const readsHistory = record || (ctx.pullRequest !== null && !paired)
  const { repo: url, token, branch, dir } = targets.history
  const pairs = await preflight(
    inputs,
    readsHistory
      ? {
          repository: { url, token, branch, dir, writes: record, adopt: inputs['adopt-branch'] }
        }
      : {}
  )
  const cases = pairs.map(p => p.head)
  const suiteId = randomUUID()
  // Every Docker-based engine hands its run id over at prepare, for the post: step to clean up.
  const keepRunId = runIdKeeper()
  const engine = await selectEngine(engineSettings(inputs, keepRunId), suiteId, actionsLog)
  core.saveState(STATE_ENGINE, engine.kind)
  const options = { log: actionsLog, suiteId, engine, git: ctx.git, keepRunId }
  const pairedRun = paired ? await runPairedSuite(inputs, { ...options, pairs }) : null
  const result = pairedRun?.head ?? (await runSuite(inputs, { ...options, cases }))
  core.setOutput('result', writeResult(result, inputs['out-dir']))
  core.setOutput('engine', result.meta.engine)
  await core.summary.addRaw(jobSummary(result)).write()

  if (pairedRun) {
    await reportPaired(pairedRun, inputs, ctx, targets)
  } else if (ctx.pullRequest) {
    await comparePullRequest(result, inputs, ctx.pullRequest, targets)
  } else {
    fs.writeFileSync(targets.reportPath, jobSummary(result))
    core.setOutput('report', targets.reportPath)
    core.setOutput('regression', 'false')
    core.setOutput('verdict', 'none')
    core.setOutput('verdicts', '[]')
  }
  if (record) {
    const target = await recordTarget(inputs, targets)
    const recorded = await core.group(`Record the result on ${targets.history.branch}`, () =>
      recordResult(result, target, {
        inputs,
        cases,
        repositoryUrl: targets.repositoryUrl ?? undefined,
        log: actionsLog
      })
    )
    actionsLog.info(
      `history: ${recorded.added.length} entries added at ${describeLocation(target)}`
    )
  } else {
    actionsLog.info(`history: not recorded (record: ${inputs.record}, event: ${ctx.git.event})`)
  }
}
