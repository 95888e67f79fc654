import { InputError, type Inputs } from '../config/inputs'
import { shouldRecord } from '../history'
import type { WorkflowContext } from '../result/context'
import { actionsLog } from './log'
import { mergeBase } from './merge-base'

/**
 * Paired mode with no base named: a pull request measures its merge-base, the commit checked out
 * beside the workspace (`baseline-ref`); without the merge-base in the checkout (a shallow clone)
 * that is an error saying how to get it. A recording event (a push) has no merge-base, so one
 * workflow can serve both: the push is recorded alone, as in history mode.
 */
export async function withPairedBase(inputs: Inputs, ctx: WorkflowContext): Promise<Inputs> {
  const named =
    inputs['baseline-gnes-version'] ??
    inputs['baseline-image'] ??
    inputs['baseline-topology'] ??
    inputs['baseline-ref']
  if (inputs.baseline !== 'paired' || named !== null) return inputs
  if (!ctx.pullRequest) {
    if (!shouldRecord(inputs.record, ctx.git.event)) return inputs
    actionsLog.info(
      `paired mode measures a pull request beside its merge-base; this ${ctx.git.event ?? 'run'} names no base, so it is recorded alone`
    )
    return { ...inputs, baseline: 'history' }
  }
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
