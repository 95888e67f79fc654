import * as path from 'node:path'
import type { Inputs } from '../config/inputs'
import { branchLocation, type BranchHistory } from '../pipeline'
import type { WorkflowContext } from '../result/context'
import { dashboardUrl } from './dashboard-url'

/** Where a run of the action reads and writes, derived once from its inputs and the workflow. */
export interface ActionTargets {
  history: BranchHistory
  /** `https://github.com/owner/repo` of the benchmarked repository, for commit links. */
  repositoryUrl: string | null
  /** The history's GitHub Pages address (e.g. https://o.github.io/r/benchmarks/); null when unknown. */
  dashboardUrl: string | null
  /** The Markdown report, the `report` output. */
  reportPath: string
  /** Where the pull-request comment goes; null without a token or repository. */
  comment: { token: string; owner: string; repo: string; baseUrl: string } | null
}

/** GitHub's own addresses, for a runner that does not set GITHUB_SERVER_URL / GITHUB_API_URL. */
const SERVER_URL = 'https://github.com'
const API_URL = 'https://api.github.com'

export async function actionTargets(inputs: Inputs, ctx: WorkflowContext): Promise<ActionTargets> {
  const repository = ctx.git.repository
  const historyRepository = inputs['history-repository'] ?? repository
  if (!historyRepository) {
    throw new Error('no repository to keep the history in: set the history-repository input')
  }
  const serverUrl = ctx.git.serverUrl ?? SERVER_URL
  const token = inputs['github-token']
  const history = branchLocation({
    repository: `${serverUrl}/${historyRepository}.git`,
    branch: inputs['gh-pages-branch'],
    dir: inputs['history-dir'],
    token,
    adopt: inputs['adopt-branch']
  })
  const [repoOwner, repoName] = (repository ?? '').split('/')
  return {
    history,
    repositoryUrl: repository ? `${serverUrl}/${repository}` : null,
    dashboardUrl: await dashboardUrl({
      input: inputs['dashboard-url'],
      repository: historyRepository,
      dir: inputs['history-dir'],
      serverUrl,
      apiUrl: ctx.apiUrl ?? API_URL,
      token
    }),
    reportPath: path.join(inputs['out-dir'], 'report.md'),
    comment:
      token && repoOwner && repoName
        ? { token, owner: repoOwner, repo: repoName, baseUrl: ctx.apiUrl ?? API_URL }
        : null
  }
}
