import { getOctokit } from '@actions/github'

export interface CommentTarget {
  token: string
  owner: string
  repo: string
  issueNumber: number
  /** The comment's marker (`commentMarker(key)`): the first line of the comment it keeps. */
  marker: string
  body: string
  /** REST API root; defaults to GITHUB_API_URL, else https://api.github.com. */
  baseUrl?: string
}

/** `forbidden`: the token may not write here (a fork's read-only token); nothing was changed. */
export type CommentOutcome = 'created' | 'updated' | 'forbidden'

const isForbidden = (err: unknown): boolean =>
  typeof err === 'object' && err !== null && (err as { status?: unknown }).status === 403

/** Whether a comment is the one `marker` names: its first line is the marker, and nothing else. */
const carries = (body: string | null | undefined, marker: string): boolean =>
  typeof body === 'string' && body.split(/\r?\n/, 1)[0] === marker

/**
 * Keeps one comment per pull request and key: the first comment whose first line is the marker is
 * edited in place, so a PR pushed ten times shows one current report instead of ten stale ones,
 * and two workflows or matrix jobs keep two. Comments are read page by page and the walk stops at
 * the first match.
 */
export async function postOrUpdateComment(t: CommentTarget): Promise<CommentOutcome> {
  const body = carries(t.body, t.marker) ? t.body : `${t.marker}\n${t.body}`
  const octokit = getOctokit(t.token, t.baseUrl ? { baseUrl: t.baseUrl } : {})
  const where = { owner: t.owner, repo: t.repo }
  try {
    let existing: number | null = null
    const pages = octokit.paginate.iterator(octokit.rest.issues.listComments, {
      ...where,
      issue_number: t.issueNumber,
      per_page: 100
    })
    for await (const page of pages) {
      const hit = page.data.find(c => carries(c.body, t.marker))
      if (hit) {
        existing = hit.id
        break
      }
    }
    if (existing !== null) {
      await octokit.rest.issues.updateComment({ ...where, comment_id: existing, body })
      return 'updated'
    }
    await octokit.rest.issues.createComment({ ...where, issue_number: t.issueNumber, body })
    return 'created'
  } catch (err) {
    if (isForbidden(err)) return 'forbidden'
    throw err
  }
}
