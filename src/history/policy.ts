/**
 * The events whose code is the branch's own and whose figures belong in the history. Everything
 * else stays out under `record: auto`: pull requests and merge queues (code not yet merged),
 * reviews and `workflow_run` (a run about another run), and any event added later.
 */
const RECORDING_EVENTS: ReadonlySet<string> = new Set([
  'push',
  'release',
  'schedule',
  'workflow_dispatch'
])

/**
 * The `record` input: `auto` records on the recording events, and outside Actions (no event: the
 * command line); true/false force it.
 */
export function shouldRecord(record: 'auto' | 'true' | 'false', event: string | null): boolean {
  if (record !== 'auto') return record === 'true'
  return event === null || RECORDING_EVENTS.has(event)
}
