import type { ParseArgsConfig } from 'node:util'

/** One CLI sub-command: `gnes-latency-bench <name> [flags]`. */
export interface Command {
  name: string
  summary: string
  /** Flags in node:util parseArgs form; kebab-case, as the action's inputs. */
  options: NonNullable<ParseArgsConfig['options']>
  /** Returns the process exit code. Throw an Error with a clear message for bad input. */
  run(values: Record<string, string | boolean | undefined>, positionals: string[]): Promise<number>
}
