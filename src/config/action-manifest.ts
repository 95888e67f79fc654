import * as fs from 'node:fs'
import { parse } from 'yaml'
import { z } from 'zod'
import { assetPath } from '../paths'

const ManifestSchema = z.object({
  inputs: z.record(z.object({ description: z.string().min(1), default: z.string().optional() }))
})

let cached: Record<string, string> | undefined

/**
 * What each action input means, from action.yml itself: the one source for the action's inputs
 * and the CLI's `--help`, so an input added there is described on the command line too.
 */
export function inputDescriptions(): Record<string, string> {
  if (cached) return cached
  const file = assetPath('action.yml')
  const parsed = ManifestSchema.safeParse(parse(fs.readFileSync(file, 'utf8')))
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new Error(`${file}: at ${issue.path.join('.')}: ${issue.message}`)
  }
  cached = Object.fromEntries(
    Object.entries(parsed.data.inputs).map(([name, i]) => [name, i.description.trim()])
  )
  return cached
}
