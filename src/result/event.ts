import * as fs from 'node:fs'
import { z } from 'zod'

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
      head: z.object({ sha: z.string() })
    })
    .nullish()
})
export type WorkflowEvent = z.infer<typeof EventSchema>

export function readEvent(env: NodeJS.ProcessEnv = process.env): WorkflowEvent {
  const file = env.GITHUB_EVENT_PATH
  if (!file || !fs.existsSync(file)) return {}
  const parsed = EventSchema.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')))
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new Error(`event payload ${file}: at ${issue.path.join('.')}: ${issue.message}`)
  }
  return parsed.data
}
