import type { Inputs } from '../config/inputs'
import type { WorkflowContext } from '../result/context'
import {
  createOrUpdateCheckRun,
  type CheckRunOutcome,
  type CheckRunOutput,
  type CheckRunTarget
} from './check-run'
import { actionsLog, fail } from './log'
import type { ActionTargets } from './targets'

/** A commit id the Checks API takes: SHA-1's 40 or SHA-256's 64 lowercase hex digits. */
const SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/

/**
 * Where this run's check goes: the repository's token and API, the commit the result records (a
 * pull request's head, never its test merge; else the pushed commit) and the run's page. Null
 * without a token, a repository or a commit id.
 */
export function checkRunTarget(
  targets: ActionTargets,
  ctx: WorkflowContext,
  name: string
): CheckRunTarget | null {
  const sha = ctx.git.sha
  if (!targets.comment || sha === null || !SHA.test(sha)) return null
  const { runId } = ctx.git
  const run =
    targets.repositoryUrl && runId ? `${targets.repositoryUrl}/actions/runs/${runId}` : null
  return { ...targets.comment, name, headSha: sha, detailsUrl: run }
}

export interface CheckPublish {
  mode: Exclude<Inputs['check-run'], 'false'>
  target: CheckRunTarget | null
  output: CheckRunOutput
  /** A fork's pull request: its token cannot write checks, whatever `check-run` says. */
  fork: boolean
}

/**
 * Creates (or on a re-run updates) the run's check. A token that may not is a warning under
 * `auto` and on a fork's pull request (pr-comment-fork.yml creates the check there); under `true`
 * any failure to create it fails the step, so a missing `checks: write` does not leave a
 * required check waiting unnoticed.
 */
export async function publishCheckRun(o: CheckPublish): Promise<void> {
  const strict = o.mode === 'true' && !o.fork
  const missed = (why: string) => (strict ? fail(why) : actionsLog.warn(why))
  if (!o.target) {
    return missed('no check run: the run has no token, repository or commit id to create it with')
  }
  let outcome: CheckRunOutcome
  try {
    outcome = await createOrUpdateCheckRun(o.target, o.output)
  } catch (err) {
    return missed(`could not create the check run '${o.target.name}': ${(err as Error).message}`)
  }
  if (outcome === 'forbidden') {
    return missed(
      `the token may not create the check run '${o.target.name}' (403): give the workflow ` +
        '`permissions: checks: write`; a fork’s pull request gets a read-only token, and ' +
        'workflows/pr-comment-fork.yml creates its check from a workflow_run'
    )
  }
  actionsLog.info(
    `check run '${o.target.name}' ${outcome} on ${o.target.headSha}: ${o.output.conclusion}, ${o.output.title}`
  )
}
