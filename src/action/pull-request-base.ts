import { InputError, type Inputs } from '../config/inputs'
import type { WorkflowContext } from '../result/context'
import { actionsLog } from './log'
import { mergeBase } from './merge-base'

/**
 * A pull request in paired mode with no base named measures its merge-base: the commit checked
 * out beside the workspace is the base (`baseline-ref`). Without the merge-base in the checkout
 * (a shallow clone) that is an error saying how to get it.
 */
export async function withPullRequestBase(inputs: Inputs, ctx: WorkflowContext): Promise<Inputs> {
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
