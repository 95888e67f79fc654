import { InputError, parseInputs, type Inputs, type RawInputs } from '../config/inputs'
import { shouldRecord } from '../history'
import type { ComparedCommits } from '../result/compared-commits'
import type { WorkflowContext } from '../result/context'
import { hasCommit } from './compared-commits'
import { actionsLog } from './log'

const named = (i: Inputs): boolean =>
  (i['baseline-gnes-version'] ??
    i['baseline-image'] ??
    i['baseline-topology'] ??
    i['baseline-ref']) !== null

const refusal = (why: string): InputError =>
  new InputError(`Invalid input:\n  input 'baseline' = 'paired': ${why}`)

/**
 * The run's inputs, with paired mode's base where none is named. A pull request is measured
 * beside the base its workspace calls for (`ComparedCommits`: the test merge's first parent, or
 * the head's merge-base); a workspace that holds neither, or lacks the base's commit, is an error
 * before anything starts. A recording event (a push) has no base, so one workflow serves both: the
 * push is parsed again as history mode, so its runs, requests and threshold are exactly those of a
 * history-mode workflow's push.
 */
export async function withPairedBase(
  raw: Partial<RawInputs>,
  ctx: WorkflowContext,
  /** A pull request's commits (or why none can be found); null on other events. */
  compared: ComparedCommits | string | null,
  workspace: string
): Promise<Inputs> {
  const inputs = parseInputs(raw)
  if (inputs.baseline !== 'paired' || named(inputs)) return inputs
  if (compared === null) {
    if (!shouldRecord(inputs.record, ctx.git.event)) return inputs
    actionsLog.info(
      `paired mode measures a pull request beside its base; this ${ctx.git.event ?? 'run'} names no base, so it is recorded alone, as in history mode`
    )
    return parseInputs({ ...raw, baseline: 'history' })
  }
  if (typeof compared === 'string') throw refusal(compared)
  if (!compared.base || !(await hasCommit(workspace, compared.base))) {
    const which =
      compared.workspace === 'test-merge'
        ? `the test merge's base ${compared.base}`
        : "this pull request's merge-base"
    throw refusal(
      `${which} is not in the checkout at ${workspace}; check out with fetch-depth: 0, or name the base with baseline-ref, baseline-gnes-version, baseline-image or baseline-topology`
    )
  }
  actionsLog.info(
    compared.workspace === 'test-merge'
      ? `paired mode: the workspace is the test merge ${compared.merge}; the base is its first parent, ${compared.base} (${compared.baseRef} as the merge sees it)`
      : `paired mode: the workspace is the pull request's head ${compared.head}; the base is its merge-base with ${compared.baseRef}, ${compared.base}`
  )
  return { ...inputs, 'baseline-ref': compared.base }
}
