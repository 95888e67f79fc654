import { getOctokit } from '@actions/github'
import { readMarker } from '../report/comment-marker'

export interface CommentTarget {
  token: string
  owner: string
  repo: string
  issueNumber: number
  /** The comment's marker (`commentMarker(key)`): what the first line of the comment it keeps starts with. */
  marker: string
  /** The report, its first line the marker line (`markReport`). */
  body: string
  /** The pull request's head commit this report is about; null when the event did not name one. */
  head: string | null
  /** REST API root; defaults to GITHUB_API_URL, else https://api.github.com. */
  baseUrl?: string
}

/**
 * `kept`: the comment reports another head and this run's head is not (or may not be) the pull
 * request's head, so it was left as it is (`reason` says why). `forbidden`: the token may not
 * write here (a fork's read-only token); nothing was changed.
 */
export type CommentOutcome =
  { outcome: 'created' | 'updated' | 'forbidden' } | { outcome: 'kept'; reason: string }

const isForbidden = (err: unknown): boolean =>
  typeof err === 'object' && err !== null && (err as { status?: unknown }).status === 403

type Octokit = ReturnType<typeof getOctokit>
type Where = { owner: string; repo: string }

/**
 * Whether a run may replace a comment, runs finishing in any order: always where the comment
 * reports no head, or this run's head, or where this run's head is the pull request's current
 * head (`current`). A run of an older head (or one that could not read the current head:
 * `current` null) never replaces another head's verdict, which may be newer.
 */
export function mayReplace(
  run: string | null,
  reported: string | null,
  current: string | null
): boolean {
  return run === null || reported === null || reported === run || run === current
}

/** The pull request's head commit now, or the error that kept it from being read. */
async function currentHead(
  octokit: Octokit,
  where: Where,
  pullNumber: number
): Promise<{ sha: string } | { error: string }> {
  try {
    const { data } = await octokit.rest.pulls.get({ ...where, pull_number: pullNumber })
    return { sha: data.head.sha }
  } catch (err) {
    return { error: (err as Error).message }
  }
}

/** The first comment `marker` names, read page by page up to that comment, and the head it reports. */
async function findComment(
  octokit: Octokit,
  where: Where,
  t: CommentTarget
): Promise<{ id: number; head: string | null } | null> {
  const pages = octokit.paginate.iterator(octokit.rest.issues.listComments, {
    ...where,
    issue_number: t.issueNumber,
    per_page: 100
  })
  for await (const page of pages) {
    for (const c of page.data) {
      const read = readMarker(c.body, t.marker)
      if (read) return { id: c.id, head: read.head }
    }
  }
  return null
}

/** Why a run leaves the comment as it is, in the log's words. */
const keptReason = (
  t: CommentTarget,
  reported: string,
  now: { sha: string } | { error: string }
) =>
  'sha' in now
    ? `the comment reports head ${reported}, and this run's head ${t.head} is no longer the pull request's head (${now.sha})`
    : `the comment reports head ${reported}, and the pull request's current head could not be read (${now.error}) to tell whether this run's head ${t.head} is newer`

/**
 * Keeps one comment per pull request and key: the first comment whose first line carries the
 * marker is edited in place, so a PR pushed ten times shows one current report instead of ten
 * stale ones, and two workflows or matrix jobs keep two. Before replacing a comment that reports
 * another head, the pull request's current head is read (`mayReplace`): an older run finishing
 * last leaves the newer verdict in place.
 */
export async function postOrUpdateComment(t: CommentTarget): Promise<CommentOutcome> {
  const octokit = getOctokit(t.token, t.baseUrl ? { baseUrl: t.baseUrl } : {})
  const where = { owner: t.owner, repo: t.repo }
  try {
    const existing = await findComment(octokit, where, t)
    if (existing === null) {
      await octokit.rest.issues.createComment({
        ...where,
        issue_number: t.issueNumber,
        body: t.body
      })
      return { outcome: 'created' }
    }
    if (!mayReplace(t.head, existing.head, null)) {
      const now = await currentHead(octokit, where, t.issueNumber)
      if (!mayReplace(t.head, existing.head, 'sha' in now ? now.sha : null))
        return { outcome: 'kept', reason: keptReason(t, existing.head!, now) }
    }
    await octokit.rest.issues.updateComment({ ...where, comment_id: existing.id, body: t.body })
    return { outcome: 'updated' }
  } catch (err) {
    if (isForbidden(err)) return { outcome: 'forbidden' }
    throw err
  }
}
