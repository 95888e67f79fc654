import type { Span } from './span'

/** Why spans were not kept. A body that cannot be read at all counts once. */
export interface DropCounts {
  /** A body that does not decode, or a span missing ids or times. */
  malformed: number
  /** A body over the size cap (compressed or not). */
  tooLarge: number
  /** A trace the driver did not start (another client, a service's own background work). */
  unknownTrace: number
  /** A trace already joined to its request: the flush wait ended before it arrived. */
  late: number
  /** Past the per-trace or total cap of held spans. */
  overflow: number
  /** Arrived after the receiver closed. */
  afterClose: number
}

export interface TraceCounts {
  /** Spans kept for joining. */
  received: number
  dropped: DropCounts
}

/** Spans held at once: a trace of a chain holds about two per hop, a run some thousands of traces. */
export const MAX_SPANS_PER_TRACE = 1024
export const MAX_SPANS_HELD = 500_000

interface Expected {
  /** The span id the driver sent as the parent in `traceparent`: the root's parent. */
  rootParent: string
  spans: Span[]
}

/** How long to wait for a run's spans: until complete and quiet for `quietMs`, at most `maxMs`. */
export interface SettleOptions {
  maxMs: number
  quietMs: number
}

/**
 * A trace holds its root (the span whose parent is the driver's) and every span's parent: what
 * can be known to be missing is not. A child the services have not exported yet cannot be seen,
 * which is what the quiet time is for.
 */
function connected(e: Expected): boolean {
  const ids = new Set(e.spans.map(s => s.spanId))
  return (
    e.spans.some(s => s.parentSpanId === e.rootParent) &&
    e.spans.every(s => s.parentSpanId === e.rootParent || ids.has(s.parentSpanId ?? ''))
  )
}

/** The spans of the traces the driver started, held until joined; everything else counted. */
export class SpanCollector {
  private readonly expected = new Map<string, Expected>()
  private readonly joined = new Set<string>()
  private held = 0
  private lastSpanAt = 0
  private closed = false
  private readonly tally: TraceCounts = {
    received: 0,
    dropped: { malformed: 0, tooLarge: 0, unknownTrace: 0, late: 0, overflow: 0, afterClose: 0 }
  }

  /** The driver starts `traceId` with `rootParent` as the parent span id it sends. */
  expect(traceId: string, rootParent: string): void {
    if (!this.closed) this.expected.set(traceId, { rootParent, spans: [] })
  }

  /** Counts spans (or bodies, for `malformed` and `tooLarge`) dropped before they were read. */
  drop(reason: keyof DropCounts, n = 1): void {
    this.tally.dropped[this.closed ? 'afterClose' : reason] += n
  }

  add(spans: readonly Span[]): void {
    for (const span of spans) {
      if (this.closed) {
        this.tally.dropped.afterClose++
        continue
      }
      const e = this.expected.get(span.traceId)
      if (!e) {
        this.tally.dropped[this.joined.has(span.traceId) ? 'late' : 'unknownTrace']++
        continue
      }
      if (e.spans.length >= MAX_SPANS_PER_TRACE || this.held >= MAX_SPANS_HELD) {
        this.tally.dropped.overflow++
        continue
      }
      e.spans.push(span)
      this.held++
      this.tally.received++
      this.lastSpanAt = Date.now()
    }
  }

  /** Whether `traceId`'s spans so far hold its root and every span's parent; ask before `take`. */
  complete(traceId: string): boolean {
    const e = this.expected.get(traceId)
    return e !== undefined && connected(e)
  }

  /** The spans of `traceId`, released: later spans of it count as late. */
  take(traceId: string): Span[] {
    const e = this.expected.get(traceId)
    if (!e) return []
    this.expected.delete(traceId)
    this.joined.add(traceId)
    this.held -= e.spans.length
    return e.spans
  }

  /** Resolves once every trace of `traceIds` is connected and no span came for a while, or at `maxMs`. */
  async settle(traceIds: readonly string[], opts: SettleOptions): Promise<void> {
    const until = Date.now() + opts.maxMs
    const pending = new Set(traceIds)
    for (;;) {
      for (const id of pending) {
        const e = this.expected.get(id)
        if (!e || connected(e)) pending.delete(id)
      }
      const now = Date.now()
      const quiet = now - this.lastSpanAt >= opts.quietMs
      if ((pending.size === 0 && quiet) || now >= until || this.closed) return
      await new Promise(resolve => setTimeout(resolve, Math.min(20, until - now)))
    }
  }

  counts(): TraceCounts {
    return { received: this.tally.received, dropped: { ...this.tally.dropped } }
  }

  /** Later spans count as after close; held spans are released. */
  close(): void {
    this.closed = true
    this.expected.clear()
    this.held = 0
  }
}
