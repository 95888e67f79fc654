import { resolveCacheInput } from './action/cache'
import { comparedCommits } from './action/compared-commits'
import { actionInputs } from './action/inputs'
import { actionsLog } from './action/log'
import { withPairedBase } from './action/paired-base'
import { actionPorts } from './action/run-ports'
import { deprecationNotes } from './config/inputs'
import { runBenchmark } from './pipeline'
import { workflowContext } from './result/context'

/** The action's main step: inputs and the workflow in; outputs, summary, verdict and history out. */
export async function run(): Promise<void> {
  const ctx = workflowContext()
  const raw = actionInputs()
  for (const note of deprecationNotes(raw)) actionsLog.warn(note)
  const workspace = process.env.GITHUB_WORKSPACE ?? process.cwd()
  const compared = ctx.pullRequest && (await comparedCommits(workspace, ctx.pullRequest))
  const cached = resolveCacheInput(raw, actionsLog)
  const inputs = await withPairedBase(cached, ctx, compared, workspace)
  await runBenchmark(inputs, await actionPorts(inputs, ctx, compared))
}
