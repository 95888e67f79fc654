import type { RequestRecord } from '../client/http-load'
import type { Span } from '../traces/span'
import { cleanHopName, MAX_HOP_NAME } from './http'

/**
 * Per-hop figures of one request from its trace's spans. A service's hop is its self time: each of
 * its spans' duration less the union of its children's intervals (clipped to the span, overlaps
 * counted once), as Jaeger computes self time, summed over the service's spans in the trace. A
 * CLIENT span with a SERVER child is the call between two services: its duration less the server
 * spans' is the hop `a->b` (network and queueing), taken from durations alone, so clocks of
 * different hosts need not agree.
 */

/** Nanoseconds covered by the union of `intervals` within [from, to]. */
function covered(intervals: [bigint, bigint][], from: bigint, to: bigint): bigint {
  const clipped = intervals
    .map(([s, e]): [bigint, bigint] => [s < from ? from : s, e > to ? to : e])
    .filter(([s, e]) => e > s)
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
  let total = 0n
  let end = from
  for (const [s, e] of clipped) {
    if (e <= end) continue
    total += e - (s > end ? s : end)
    end = e
  }
  return total
}

const seconds = (ns: bigint): number => (ns > 0n ? Number(ns) / 1e9 : 0)

/** A gap's name keeps half the hop name's length per side, so `a->b` stays within it. */
const side = (service: string): string => service.slice(0, (MAX_HOP_NAME - 2) >> 1)

/** One trace's hops as [name, seconds], in the order their spans started. */
export function traceHops(spans: readonly Span[]): [string, number][] {
  const children = new Map<string, Span[]>()
  for (const s of spans) {
    if (s.parentSpanId === null) continue
    const list = children.get(s.parentSpanId) ?? []
    list.push(s)
    children.set(s.parentSpanId, list)
  }
  const hops = new Map<string, bigint>()
  const add = (name: string, ns: bigint) => {
    if (name === '' || name === '->') return
    hops.set(name, (hops.get(name) ?? 0n) + (ns > 0n ? ns : 0n))
  }
  const ordered = [...spans].sort((a, b) => (a.startNs < b.startNs ? -1 : 1))
  for (const span of ordered) {
    const kids = children.get(span.spanId) ?? []
    const duration = span.endNs - span.startNs
    const servers = span.kind === 'client' ? kids.filter(k => k.kind === 'server') : []
    const service = cleanHopName(span.service)
    if (servers.length > 0) {
      const served = servers.reduce((n, k) => n + (k.endNs - k.startNs), 0n)
      const callee = cleanHopName(servers[0].service)
      add(`${side(service)}->${side(callee)}`, duration - served)
      continue
    }
    const intervals = kids.map((k): [bigint, bigint] => [k.startNs, k.endNs])
    add(service, duration - covered(intervals, span.startNs, span.endNs))
  }
  return [...hops].map(([name, ns]) => [name, seconds(ns)])
}

/** A trace's spans as the receiver releases them, and whether they were whole. */
export interface TakenTrace {
  spans: Span[]
  complete: boolean
}

/**
 * Each traced request's hops from its trace, taken from `takeTrace` (which releases it), and what
 * the trace brought; a traced request whose trace brought no span gets no hops, so it counts as
 * an answer without hop figures.
 */
export function joinTraceHops(
  records: readonly RequestRecord[],
  takeTrace: (traceId: string) => TakenTrace
): RequestRecord[] {
  return records.map(r => {
    if (r.traceId === undefined) return r
    const { spans, complete } = takeTrace(r.traceId)
    const trace = { spans: spans.length, complete }
    return spans.length === 0 ? { ...r, trace } : { ...r, hops: traceHops(spans), trace }
  })
}
