import type { RequestRecord } from '../../client/http-load'
import type { TraceStart } from '../../client/trace-context'
import { joinTraceHops } from '../../metrics/trace-hops'
import { fromTraces, type HopSource } from '../../topology/http-schema'
import { dropsBetween, NO_DROPS, runTraceTally } from '../../metrics/trace-tally'
import type { DropCounts } from '../../traces/collector'
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

/** A stream's requests with their trace hops, and the spans dropped since the last reading. */
export interface JoinedStream {
  records: RequestRecord[]
  /** Null when the hops are not from traces. */
  dropped: DropCounts | null
}

/**
 * Joins streams' traces one after another: each stream's drops are those the receiver counted
 * since the previous stream's join (a late span of one stream lands in the next).
 */
export function traceJoiner(
  reading: HopReading,
  log: Log
): (records: RequestRecord[]) => Promise<JoinedStream> {
  let seen = reading.traces?.counts().dropped ?? NO_DROPS
  return async records => {
    const { source, traces } = reading
    if (!fromTraces(source) || !traces) return { records, dropped: null }
    const joined = await joinTraces(records, source.otlp.flushSec, traces)
    const now = traces.counts()
    const dropped = dropsBetween(seen, now.dropped)
    seen = now.dropped
    const drops = Object.entries(dropped).filter(([, n]) => n > 0)
    const t = runTraceTally(joined, dropped)
    log.info(
      `traces: ${t.traced} of ${records.length} requests traced, ${t.complete} complete; ` +
        `spans joined ${t.spans}, dropped ` +
        (drops.length ? drops.map(([why, n]) => `${n} ${why}`).join(', ') : 'none')
    )
    return { records: joined, dropped }
  }
}

/**
 * Waits for the spans of a stream's traced requests (until every trace is connected and quiet,
 * at most `flushSec` after the last answer), then joins each trace's hops to its request.
 */
async function joinTraces(
  records: RequestRecord[],
  flushSec: number,
  traces: TraceReceiver
): Promise<RequestRecord[]> {
  const ids = records.flatMap(r => (r.traceId === undefined ? [] : [r.traceId]))
  await traces.settle(ids, { maxMs: flushSec * 1000, quietMs: QUIET_MS })
  return joinTraceHops(records, id => ({ complete: traces.complete(id), spans: traces.take(id) }))
}
