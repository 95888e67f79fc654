import * as core from '@actions/core'
import * as fs from 'node:fs'
import * as path from 'node:path'
import type { Inputs } from '../config/inputs'
import { selectEngine } from '../engine/select'
import { readBranchHistory } from '../history'
import {
  describeLocation,
  engineSettings,
  type HistoryLocation,
  type JudgedThresholds,
  type RunPorts,
  type RunVerdict
} from '../pipeline'
import { jobSummary } from '../render'
import type { ComparedCommits } from '../result/compared-commits'
import type { WorkflowContext } from '../result/context'
import type { Result } from '../result/schema'
import { checkReading } from '../judge/check'
import { brokenCount } from '../judge/thresholds'
import { checkLine, checkName, checkSummary, checkTitle } from '../report/check-text'
import { checkRunTarget, publishCheckRun } from './check-publish'
import { fetchBranchIntoWorkspace } from './local-branch'
import { announceSteps } from './alert'
import { commentKey } from './comment-key'
import { restoreProvisioning } from './cache'
import { actionsLog } from './log'
import { publishPullRequestReport } from './publish'
import { keepCleanupState, STATE_ENGINE } from './state'
import { actionTargets, type ActionTargets } from './targets'
import { count } from '../text/count'

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

/** A verdict's report, outputs and exit status; the comment only on a pull request. */
async function publish(
  verdict: RunVerdict,
  inputs: Inputs,
  targets: ActionTargets,
  pr: { number: number; head: string } | null,
  check: string | null
): Promise<void> {
  await publishPullRequestReport({
    comparison: verdict,
    markdown: verdict.markdown,
    commentKey: commentKey(inputs['comment-key']),
    reportPath: targets.reportPath,
    failOnRegression: inputs['fail-on-regression'],
    onInconclusive: inputs['on-inconclusive'],
    head: pr?.head ?? null,
    check,
    comment:
      pr !== null && inputs['comment-on-pr'] && targets.comment
        ? { ...targets.comment, issueNumber: pr.number }
        : null
  })
}

/** A run judged by nothing but its thresholds: the result's summary and theirs as the report. */
async function writeUnjudged(
  result: Result,
  targets: ActionTargets,
  thresholds: string
): Promise<void> {
  // A recorded result file wrote nothing into out-dir before.
  fs.mkdirSync(path.dirname(targets.reportPath), { recursive: true })
  const summary = thresholds ? `${jobSummary(result)}\n${thresholds}` : jobSummary(result)
  fs.writeFileSync(targets.reportPath, summary)
  if (thresholds) await core.summary.addRaw(thresholds).write()
  core.setOutput('report', targets.reportPath)
  core.setOutput('regression', 'false')
  core.setOutput('verdict', 'none')
  core.setOutput('verdicts', '[]')
}

/**
 * The judgement shown: a verdict published (a pull request's head commit in its marker line), or
 * the unjudged run's report; then the check run, where something was judged (a verdict, or
 * thresholds on the head) and `check-run` is not false. `thresholds-broken` counts the head's
 * broken thresholds (0 where none was judged).
 */
async function showJudgement(
  judged: { verdict: RunVerdict | null; result: Result; thresholds?: JudgedThresholds },
  inputs: Inputs,
  targets: ActionTargets,
  ctx: WorkflowContext
): Promise<void> {
  const { verdict, thresholds } = judged
  // Before anything that may fail the step: a workflow reads it on failure too.
  core.setOutput('thresholds-broken', String(brokenCount(thresholds?.head ?? null)))
  const reading =
    inputs['check-run'] === 'false'
      ? null
      : checkReading(verdict?.verdicts ?? [], thresholds?.head ?? null)
  const pr = ctx.pullRequest
  if (verdict) {
    // On a pull request the commit the result records is the pull request's head.
    const head = pr && ctx.git.sha ? { number: pr.number, head: ctx.git.sha } : null
    await publish(verdict, inputs, targets, head, reading && checkLine(reading))
  } else {
    await writeUnjudged(judged.result, targets, thresholds?.markdown ?? '')
  }
  if (inputs['check-run'] === 'false' || reading === null) return
  if (!verdict && !thresholds?.head.cases.length) return
  const note = `the full report is in the job summary and in ${targets.reportPath} (the \`report\` output).`
  const key = commentKey(inputs['comment-key'])
  await publishCheckRun({
    mode: inputs['check-run'],
    target: checkRunTarget(targets, ctx, checkName(key)),
    output: {
      conclusion: reading.conclusion,
      title: checkTitle(reading),
      summary: checkSummary(verdict?.markdown ?? thresholds!.markdown, note)
    },
    fork: pr?.fork ?? false
  })
}

/**
 * The run as the action shows it: the engine's kind saved for the `post:` step, outputs and the
 * job summary, the verdict published (a pull request's against the history on the branch; a
 * paired run's on every event, a release paired with the previous GNES judged too) and the
 * history committed, pushed or (with `auto-push: false`) left in the workspace.
 */
export async function actionPorts(
  inputs: Inputs,
  ctx: WorkflowContext,
  compared: ComparedCommits | string | null
): Promise<RunPorts> {
  const targets = await actionTargets(inputs, ctx)
  // Every Docker-based engine hands its run id over at prepare, and the local engine's services
  // their process groups as they start, for the post: step to clean up.
  const { keepRunId } = keepCleanupState()
  const pr = ctx.pullRequest
  return {
    log: actionsLog,
    git: ctx.git,
    event: ctx.git.event,
    history: targets.history,
    links: { dashboardUrl: targets.dashboardUrl, repositoryUrl: targets.repositoryUrl },
    pullRequest: pr && {
      baseRef: pr.baseRef,
      history: () =>
        core.group(`Read the history on ${targets.history.branch}`, () =>
          readBranchHistory(targets.history)
        ),
      // A workspace that is no checkout of the pull request (history mode needs none): the
      // event's base.
      baseSha: (typeof compared === 'object' && compared?.base) || pr.baseSha
    },
    compared: typeof compared === 'object' ? compared : null,
    keepRunId,
    async chooseEngine(suiteId) {
      // After pre-flight, before the engine looks for GNES: bad input costs no download.
      await restoreProvisioning(inputs, actionsLog)
      const engine = await selectEngine(engineSettings(inputs, keepRunId), suiteId, actionsLog)
      // The post: step asks this engine to clean up, with what the keepers saved.
      core.saveState(STATE_ENGINE, engine.kind)
      return engine
    },
    async written(result, file) {
      core.setOutput('result', file)
      core.setOutput('engine', result.meta.engine)
      await core.summary.addRaw(jobSummary(result)).write()
    },
    judged: (verdict, result, thresholds) =>
      showJudgement({ verdict, result, thresholds }, inputs, targets, ctx),
    async record(append) {
      if (!append) {
        actionsLog.info(`history: not recorded (record: ${inputs.record}, event: ${ctx.git.event})`)
        core.setOutput('change-points', '[]')
        return
      }
      const target = await recordTarget(inputs, targets)
      const recorded = await core.group(`Record the result on ${targets.history.branch}`, () =>
        append(target, actionsLog)
      )
      actionsLog.info(
        `history: ${count(recorded.added.length, 'entry', 'entries')} added at ${describeLocation(target)}`
      )
      await announceSteps(recorded.alerts, inputs, targets, ctx)
    }
  }
}
