import * as fs from 'node:fs'
import { z } from 'zod'
import type { GitMeta } from './schema'

/**
 * The fields of the workflow's event payload (GITHUB_EVENT_PATH) this project uses, validated:
 * a payload of another shape must fail here, at the start, not when the result is checked after
 * the whole suite.
 */
const EventSchema = z.object({
  head_commit: z.object({ message: z.string() }).nullish(),
  pull_request: z
    .object({
      number: z.number().int().positive(),
      title: z.string(),
      base: z.object({ ref: z.string(), sha: z.string().nullish() }),
      head: z.object({
        sha: z.string(),
        repo: z.object({ full_name: z.string() }).nullish()
      })
    })
    .nullish()
})
type WorkflowEvent = z.infer<typeof EventSchema>

function readEvent(env: NodeJS.ProcessEnv = process.env): WorkflowEvent {
  const file = env.GITHUB_EVENT_PATH
  if (!file || !fs.existsSync(file)) return {}
  const parsed = EventSchema.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')))
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new Error(`event payload ${file}: at ${issue.path.join('.')}: ${issue.message}`)
  }
  return parsed.data
}

/** The workflow run this process belongs to, from the runner's environment; read in one place. */
export interface WorkflowContext {
  /** What the result records of the commit; all null outside Actions. */
  git: GitMeta
  apiUrl: string | null
  pullRequest: {
    number: number
    /** The pull request's own head commit (on `pull_request`, the workspace is its test merge). */
    headSha: string
    baseRef: string
    baseSha: string | null
    /** From another repository than this run's: its token may read, not write. */
    fork: boolean
  } | null
}

export function workflowContext(env: NodeJS.ProcessEnv = process.env): WorkflowContext {
  const event = readEvent(env)
  const pr = event.pull_request
  return {
    git: {
      // On pull_request GITHUB_SHA is a synthetic merge commit; the head is what users recognise.
      sha: pr?.head.sha ?? env.GITHUB_SHA ?? null,
      ref: env.GITHUB_HEAD_REF || env.GITHUB_REF || null,
      event: env.GITHUB_EVENT_NAME ?? null,
      repository: env.GITHUB_REPOSITORY ?? null,
      runId: env.GITHUB_RUN_ID ?? null,
      serverUrl: env.GITHUB_SERVER_URL ?? null,
      message: event.head_commit?.message ?? pr?.title ?? null
    },
    apiUrl: env.GITHUB_API_URL ?? null,
    pullRequest: pr
      ? {
          number: pr.number,
          headSha: pr.head.sha,
          baseRef: pr.base.ref,
          baseSha: pr.base.sha ?? null,
          fork: !!pr.head.repo && pr.head.repo.full_name !== env.GITHUB_REPOSITORY
        }
      : null
  }
}
