/** Events whose code is not yet merged: their figures stay out of the history unless asked for. */
const PULL_REQUEST_EVENTS = new Set(['pull_request', 'pull_request_target'])

/** The `record` input: `auto` records every event except pull requests; true/false force it. */
export function shouldRecord(record: 'auto' | 'true' | 'false', event: string | null): boolean {
  if (record !== 'auto') return record === 'true'
  return !(event && PULL_REQUEST_EVENTS.has(event))
}
