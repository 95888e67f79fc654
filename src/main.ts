import * as core from '@actions/core'
import { randomUUID } from 'node:crypto'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { actionInputs } from './action/inputs'
import { fetchBranchIntoWorkspace } from './action/local-branch'
import { actionsLog, fail } from './action/log'
import { mergeBase } from './action/merge-base'
import { pagesUrl, runContext, type RunContext } from './action/github'
import { STATE_ENGINE } from './action/state'
import { writeResult } from './commands/run'
import { parseInputs, type Inputs } from './config/inputs'
import { preflight } from './config/preflight'
import { selectEngine } from './engine/select'
import { readBranchHistory, shouldRecord } from './history'
import {
  describeLocation,
  recordResult,
  renderHook,
  renderSettings,
  type HistoryLocation
} from './record'
import { jobSummary } from './render'
import { compareResult, publishPullRequestReport, renderComparisonMarkdown } from './report'
import type { Result } from './result/schema'
import { runSuite } from './suite/run'

function historyLocation(inputs: Inputs, ctx: RunContext): HistoryLocation & { kind: 'branch' } {
  const repository = inputs['history-repository'] ?? ctx.repository
  if (!repository) {
    throw new Error('no repository to keep the history in: set the history-repository input')
  }
  return {
    kind: 'branch',
    repo: `${ctx.serverUrl}/${repository}.git`,
    branch: inputs['gh-pages-branch'],
    dir: inputs['history-dir'],
    token: inputs['github-token'] ?? undefined
  }
}

/** With `auto-push: false` the history commit lands on the workspace's branch, unpushed. */
async function recordTarget(
  inputs: Inputs,
  location: HistoryLocation & { kind: 'branch' }
): Promise<HistoryLocation> {
  if (inputs['auto-push']) return location
  const workspace = process.env.GITHUB_WORKSPACE ?? process.cwd()
  await fetchBranchIntoWorkspace(workspace, location.repo, location.branch, location.token)
  actionsLog.info(
    `auto-push is false: committing to ${location.branch} in ${workspace}; push it yourself`
  )
  return { ...location, repo: workspace }
}

/** Pull requests: compare against the baseline in the history and publish the verdict. */
async function comparePullRequest(
  result: Result,
  inputs: Inputs,
  ctx: RunContext,
  location: HistoryLocation & { kind: 'branch' }
): Promise<void> {
  const pr = ctx.pullRequest!
  const history = await core.group(`Read the history on ${location.branch}`, () =>
    readBranchHistory(location)
  )
  const head = result.meta.git.sha
  const workspace = process.env.GITHUB_WORKSPACE
  const base = pr.baseSha && head && workspace ? await mergeBase(workspace, pr.baseSha, head) : null
  const comparison = compareResult(result, history, {
    threshold: inputs['alert-threshold'],
    baseRef: pr.baseRef,
    mergeBaseSha: base ?? pr.baseSha
  })
  const repository = inputs['history-repository'] ?? ctx.repository!
  const markdown = renderComparisonMarkdown(comparison, {
    dashboardUrl: pagesUrl(repository, inputs['history-dir']),
    repositoryUrl: ctx.repository ? `${ctx.serverUrl}/${ctx.repository}` : null
  })
  const [owner, repo] = (ctx.repository ?? '/').split('/')
  const token = inputs['github-token']
  await publishPullRequestReport({
    comparison,
    markdown,
    reportPath: path.join(inputs['out-dir'], 'report.md'),
    failOnRegression: inputs['fail-on-regression'],
    comment:
      inputs['comment-on-pr'] && token && owner && repo
        ? { token, owner, repo, issueNumber: pr.number, baseUrl: ctx.apiUrl }
        : null
  })
}

export async function run(): Promise<void> {
  const inputs = parseInputs(actionInputs())
  const ctx = runContext()
  const location = historyLocation(inputs, ctx)
  const record = shouldRecord(inputs.record, ctx.event)
  // Pull requests read the history and other events may write it: reach it before the suite.
  await preflight(
    inputs,
    record || ctx.pullRequest ? { repository: { url: location.repo, token: location.token } } : {}
  )
  const suiteId = randomUUID()
  const engine = await selectEngine(inputs, suiteId, actionsLog)
  // The post: step cleans up after Docker only (the Docker engine saves its run id at prepare).
  core.saveState(STATE_ENGINE, engine.kind)
  const result = await runSuite(inputs, { log: actionsLog, suiteId, engine })
  core.setOutput('result', writeResult(result, inputs['out-dir']))
  core.setOutput('engine', result.meta.engine)
  await core.summary.addRaw(jobSummary(result)).write()

  if (ctx.pullRequest) {
    await comparePullRequest(result, inputs, ctx, location)
  } else {
    const report = path.join(inputs['out-dir'], 'report.md')
    fs.writeFileSync(report, jobSummary(result))
    core.setOutput('report', report)
    core.setOutput('regression', 'false')
  }
  if (record) {
    const repositoryUrl = ctx.repository ? `${ctx.serverUrl}/${ctx.repository}` : undefined
    const target = await recordTarget(inputs, location)
    const recorded = await core.group(`Record the result on ${location.branch}`, () =>
      recordResult(result, inputs, target, renderHook(renderSettings(inputs, repositoryUrl)))
    )
    actionsLog.info(
      `history: ${recorded.added.length} entries added at ${describeLocation(target)}`
    )
  } else {
    actionsLog.info(`history: not recorded (record: ${inputs.record}, event: ${ctx.event})`)
  }
}

run().catch((err: unknown) => fail(err instanceof Error ? err.message : String(err)))
