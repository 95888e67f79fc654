import * as core from '@actions/core'
import type { Inputs } from '../config/inputs'
import { stepChange } from '../render/steps'
import { stepOutputs, type StepAlerts } from '../judge/alert'
import { stepsMarkdown } from '../report/step-alert'
import type { WorkflowContext } from '../result/context'
import { postAlert } from './alert-post'
import { actionsLog, fail } from './log'
import type { ActionTargets } from './targets'

/**
 * The steps a recording push made detectable, stamped by the alert rule: the `change-points`
 * output, the job summary, and
 * for a regression step the `regression` output, the opt-in alert (a commit comment or the
 * branch's alert issue) and, with `fail-on-regression`, a failed step. An alert that cannot be
 * posted is a warning: the summary and outputs carry it.
 */
export async function announceSteps(
  alerted: StepAlerts,
  inputs: Inputs,
  targets: ActionTargets,
  ctx: WorkflowContext
): Promise<void> {
  core.setOutput('change-points', JSON.stringify(stepOutputs(alerted)))
  if (!alerted.steps.length) return
  const markdown = stepsMarkdown(alerted, { ...targets, cc: inputs['alert-cc'] })
  await core.summary.addRaw(`\n\n${markdown}\n`).write()
  const regressions = alerted.steps.filter(s => s.alert)
  if (!regressions.length) return
  core.setOutput('regression', 'true')
  const branch = ctx.git.ref?.replace(/^refs\/heads\//, '') ?? 'the history'
  const kind = inputs['alert-comment']
  if (kind !== 'none' && targets.comment) {
    const worst = regressions.reduce((a, b) => (b.change > a.change ? b : a))
    const title = `Latency regression on ${branch}: case ${worst.caseId} ${stepChange(worst)}`
    try {
      const outcome = await postAlert({
        ...targets.comment,
        kind,
        sha: ctx.git.sha,
        branch,
        title,
        body: markdown
      })
      if (outcome === 'forbidden' || outcome === 'no commit')
        actionsLog.warn(
          `could not post the latency alert (${kind}): ${outcome === 'forbidden' ? 'the token may not (grant contents: write or issues: write)' : 'no commit to comment on'}; it is in the job summary`
        )
    } catch (err) {
      actionsLog.warn(
        `could not post the latency alert (${kind}): ${(err as Error).message}; it is in the job summary`
      )
    }
  }
  const named = regressions.map(s => `case ${s.caseId} (${s.metric} ${stepChange(s)})`).join(', ')
  if (inputs['fail-on-regression'])
    fail(`this push made a latency regression detectable: ${named} (fail-on-regression is on)`)
  else actionsLog.warn(`this push made a latency regression detectable: ${named}`)
}
