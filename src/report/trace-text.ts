import { tracesWhole } from '../metrics/trace-tally'
import type { TraceTally } from '../result/schema'
import type { DropCounts } from '../traces/collector'

/** Why spans were dropped, as a reader says it (traces/collector.ts counts them). */
const DROP_WORDS: Record<keyof DropCounts, string> = {
  malformed: 'malformed',
  tooLarge: 'too large',
  unknownTrace: 'of traces the benchmark did not start',
  late: 'late (after their request was joined)',
  overflow: 'over the cap of held spans',
  afterClose: 'after the receiver closed'
}

/** `12 dropped: 10 late (…), 2 malformed`, or null when none was. */
function dropWords(dropped: DropCounts): string | null {
  const parts = (Object.keys(DROP_WORDS) as (keyof DropCounts)[])
    .filter(k => dropped[k] > 0)
    .map(k => `${dropped[k]} ${DROP_WORDS[k]}`)
  if (parts.length === 0) return null
  const total = Object.values(dropped).reduce((a, b) => a + b, 0)
  return `${total} dropped: ${parts.join(', ')}`
}

/**
 * What a case's traces brought back, in one sentence, when something is missing: traces that came
 * back incomplete, or spans dropped. Null when all is well or the hops are not from traces. Only
 * counts reach the text.
 */
export function traceNote(t: TraceTally | null): string | null {
  if (!t || tracesWhole(t)) return null
  const drops = dropWords(t.dropped)
  return (
    `traces: ${t.complete} of ${t.traced} traced requests came back complete, ` +
    `${t.spans} spans joined` +
    (drops ? `; spans ${drops}` : '') +
    (t.complete < t.traced ? '. An incomplete trace leaves its request short of hop figures.' : '.')
  )
}
