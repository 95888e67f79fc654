import * as core from '@actions/core'
import { randomUUID } from 'node:crypto'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { actionInputs } from './action/inputs'
import { fetchBranchIntoWorkspace } from './action/local-branch'
import { actionsLog } from './action/log'
import { mergeBase } from './action/merge-base'
import { pagesUrl, runContext, type RunContext } from './action/github'
import { writeResult } from './commands/run'
import { parseInputs, type Inputs } from './config/inputs'
import { STATE_RUN_ID } from './engine/docker'
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
    token: inputs['github-token'] ?? undefined,
    adopt: inputs['adopt-branch']
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
  core.info(
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
  const suiteId = randomUUID()
  // The post: step sweeps whatever this id labels, even when the job is cancelled.
  core.saveState(STATE_RUN_ID, suiteId)
  const result = await runSuite(inputs, { log: actionsLog, suiteId })
  core.setOutput('result', writeResult(result, inputs['out-dir']))
  core.setOutput('engine', result.meta.engine)
  await core.summary.addRaw(jobSummary(result)).write()

  const location = historyLocation(inputs, ctx)
  if (ctx.pullRequest) {
    await comparePullRequest(result, inputs, ctx, location)
  } else {
    const report = path.join(inputs['out-dir'], 'report.md')
    fs.writeFileSync(report, jobSummary(result))
    core.setOutput('report', report)
    core.setOutput('regression', 'false')
  }
  if (shouldRecord(inputs.record, ctx.event)) {
    const repositoryUrl = ctx.repository ? `${ctx.serverUrl}/${ctx.repository}` : undefined
    const target = await recordTarget(inputs, location)
    const recorded = await core.group(`Record the result on ${location.branch}`, () =>
      recordResult(
        result,
        inputs,
        target,
        renderHook(renderSettings(inputs, repositoryUrl)),
        line => (line.startsWith('WARNING: ') ? core.warning(line.slice(9)) : core.info(line))
      )
    )
    core.info(`history: ${recorded.added.length} entries added at ${describeLocation(target)}`)
  } else {
    core.info(`history: not recorded (record: ${inputs.record}, event: ${ctx.event})`)
  }
}

run().catch((err: unknown) => core.setFailed(err instanceof Error ? err.message : String(err)))
