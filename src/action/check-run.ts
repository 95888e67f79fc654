import { getOctokit } from '@actions/github'
import type { CheckConclusion } from '../judge/check'

/** Where a check run goes: the repository, the commit it is about, and the run to link to. */
export interface CheckRunTarget {
  token: string
  owner: string
  repo: string
  /** REST API root, e.g. https://api.github.com. */
  baseUrl: string
  name: string
  /** The pull request's head or the pushed commit: never a pull request's test merge. */
  headSha: string
  /** The workflow run's page; null when unknown. */
  detailsUrl: string | null
}

export interface CheckRunOutput {
  conclusion: CheckConclusion
  title: string
  /** Markdown, at most 65,535 characters (`checkSummary`). */
  summary: string
}

/** `forbidden`: the token may not write checks (a fork's read-only token, no `checks: write`). */
export type CheckRunOutcome = 'created' | 'updated' | 'forbidden'

const isForbidden = (err: unknown): boolean =>
  typeof err === 'object' && err !== null && (err as { status?: unknown }).status === 403

/**
 * One completed check run per name and commit: the newest of that name on the commit is updated
 * in place (a re-run of the job, which GitHub shows as one check), else one is created.
 */
export async function createOrUpdateCheckRun(
  t: CheckRunTarget,
  out: CheckRunOutput
): Promise<CheckRunOutcome> {
  const octokit = getOctokit(t.token, { baseUrl: t.baseUrl })
  const where = { owner: t.owner, repo: t.repo }
  const fields = {
    status: 'completed' as const,
    conclusion: out.conclusion,
    completed_at: new Date().toISOString(),
    output: { title: out.title, summary: out.summary },
    ...(t.detailsUrl ? { details_url: t.detailsUrl } : {})
  }
  try {
    const { data } = await octokit.rest.checks.listForRef({
      ...where,
      ref: t.headSha,
      check_name: t.name,
      filter: 'latest'
    })
    const existing = data.check_runs.find(c => c.name === t.name)
    if (existing) {
      await octokit.rest.checks.update({ ...where, check_run_id: existing.id, ...fields })
      return 'updated'
    }
    await octokit.rest.checks.create({ ...where, name: t.name, head_sha: t.headSha, ...fields })
    return 'created'
  } catch (err) {
    if (isForbidden(err)) return 'forbidden'
    throw err
  }
}
