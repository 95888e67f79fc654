import { getOctokit } from '@actions/github'
import { alertMarker } from '../report/step-alert'

export interface AlertTarget {
  token: string
  owner: string
  repo: string
  /** REST API root; defaults to https://api.github.com. */
  baseUrl?: string
  /** A comment on the pushed commit, or the branch's one open alert issue. */
  kind: 'commit' | 'issue'
  /** The commit pushed (for `commit`). */
  sha: string | null
  /** The branch whose history alerted: its alerts share one issue. */
  branch: string
  title: string
  body: string
}

/** `forbidden`: the token may not write there; nothing was changed. */
export type AlertOutcome = 'commented' | 'opened' | 'forbidden' | 'no commit'

const isForbidden = (err: unknown): boolean =>
  typeof err === 'object' && err !== null && (err as { status?: unknown }).status === 403

/**
 * Says a push made a regression detectable where people look: a comment on the commit, or one
 * issue per branch (found by a hidden marker among the open issues) that each later alert
 * comments on, as github-action-benchmark's `comment-on-alert` and alert issues do.
 */
export async function postAlert(t: AlertTarget): Promise<AlertOutcome> {
  const octokit = getOctokit(t.token, t.baseUrl ? { baseUrl: t.baseUrl } : {})
  const where = { owner: t.owner, repo: t.repo }
  try {
    if (t.kind === 'commit') {
      if (!t.sha) return 'no commit'
      await octokit.rest.repos.createCommitComment({ ...where, commit_sha: t.sha, body: t.body })
      return 'commented'
    }
    const marker = alertMarker(t.branch)
    const open = await octokit.paginate(octokit.rest.issues.listForRepo, {
      ...where,
      state: 'open',
      per_page: 100
    })
    const issue = open.find(i => !i.pull_request && i.body?.includes(marker))
    if (issue) {
      await octokit.rest.issues.createComment({
        ...where,
        issue_number: issue.number,
        body: t.body
      })
      return 'commented'
    }
    await octokit.rest.issues.create({ ...where, title: t.title, body: `${marker}\n${t.body}` })
    return 'opened'
  } catch (err) {
    if (isForbidden(err)) return 'forbidden'
    throw err
  }
}
