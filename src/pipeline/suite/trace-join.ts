import type { RequestRecord } from '../../client/http-load'
import type { TraceStart } from '../../client/trace-context'
import { joinTraceHops } from '../../metrics/trace-hops'
import { fromTraces, type HopSource } from '../../topology/http-schema'
import type { TraceReceiver } from '../../traces/receiver'
import type { Log } from '../../log'

/** Where a generic case's hop figures come from: its answers, or its traces' receiver. */
export interface HopReading {
  source: HopSource | null
  traces: TraceReceiver | null
}

/** After the last span of a trace, how long no other span may come before a stream's join. */
const QUIET_MS = 100

/** What the driver needs to start traces, when the hops come from them. */
export function traceStart({ source, traces }: HopReading): TraceStart | undefined {
  if (!fromTraces(source) || !traces) return undefined
  return { sample: source.otlp.sample, started: (id, parent) => traces.expect(id, parent) }
}

/**
 * Waits for the spans of a stream's traced requests (until every trace is connected and quiet,
 * at most `flushSec` after the last answer), then joins each trace's hops to its request.
 */
export async function joinTraces(
  records: RequestRecord[],
  { source, traces }: HopReading,
  log: Log
): Promise<RequestRecord[]> {
  if (!fromTraces(source) || !traces) return records
  const ids = records.flatMap(r => (r.traceId === undefined ? [] : [r.traceId]))
  await traces.settle(ids, { maxMs: source.otlp.flushSec * 1000, quietMs: QUIET_MS })
  const joined = joinTraceHops(records, id => traces.take(id))
  const { received, dropped } = traces.counts()
  const drops = Object.entries(dropped).filter(([, n]) => n > 0)
  log.info(
    `traces: ${ids.length} of ${records.length} requests traced, ` +
      `${joined.filter(r => r.hops).length} with spans; spans received ${received}, dropped ` +
      (drops.length ? drops.map(([why, n]) => `${n} ${why}`).join(', ') : 'none')
  )
  return joined
}
