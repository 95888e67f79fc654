/** One flag of a sub-command; kebab-case, as the action's inputs. */
export interface Flag {
  type: 'string' | 'boolean'
  /** What it means; a flag named as an action input takes action.yml's description without one. */
  description?: string
  /** The default `--help` shows; a flag named as an action input shows the shared default. */
  default?: string
}

/** One CLI sub-command: `gnes-latency-bench <name> [flags]`. */
export interface Command {
  name: string
  summary: string
  options: Record<string, Flag>
  /** Returns the process exit code. Throw an Error with a clear message for bad input. */
  run(values: Record<string, string | boolean | undefined>, positionals: string[]): Promise<number>
}
