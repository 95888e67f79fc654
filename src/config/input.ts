import type { z } from 'zod'
import { DEFAULTS, InputError, InputsSchema, type RawInputs } from './inputs'

type Parsed = z.infer<typeof InputsSchema>

/**
 * One input validated alone by the rule the whole set uses, so a command that takes a few of them
 * (`--max-entries`, `--alert-threshold`) reads `10%` or `0` exactly as the action does.
 */
export function parseInput<K extends keyof RawInputs & keyof Parsed>(
  name: K,
  raw: string | null
): Parsed[K] {
  const value = raw ?? DEFAULTS[name]
  const parsed = InputsSchema.shape[name].safeParse(value)
  if (!parsed.success) {
    throw new InputError(
      `Invalid input:\n  input '${name}' = '${value}': ${parsed.error.issues[0].message}`
    )
  }
  return parsed.data as Parsed[K]
}
