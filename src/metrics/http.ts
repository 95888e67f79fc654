import type { Keep, RequestRecord } from '../client/http-load'
import { fromTraces, type HopSource } from '../topology/http-schema'
import { latencyHistogram } from './histogram'
import type { RunInput } from './run-result'
import { clamp, type RequestSamples } from './samples'
import { achievedRate, type SweepPoint } from './sweep'

/** Hop names are the system's text: a name keeps these characters, at most MAX_HOP_NAME of them. */
export const MAX_HOP_NAME = 40
/** Distinct hops of one run; more would be a system that names hops per request, not a chain. */
export const MAX_HOPS = 32

/** A run's samples, and what could not become samples. */
export interface HttpSamples extends RequestSamples {
  /** Requests that failed or answered an unexpected status; they have no samples. */
  errors: number
  /** Answered requests whose hop figures were absent or malformed; their other metrics stand. */
  hopsMissing: number
  /** Hop figures left out: a name empty once cleaned, repeated in one answer, or past MAX_HOPS. */
  hopsDropped: number
}

/** The response part the driver must keep for a hop source. */
export const keepFor = (hops: HopSource | null): Keep =>
  hops === null || fromTraces(hops) ? 'none' : 'json' in hops ? 'body' : 'headers'

export const cleanHopName = (raw: string): string =>
  raw.replace(/[^A-Za-z0-9_.-]/g, '').slice(0, MAX_HOP_NAME)

const TOKEN = /[!#$%&'*+.^_`|~0-9A-Za-z-]+/y
const QUOTED = /"(?:[^"\\]|\\.)*"/y
const WS = /[ \t]*/y
const DURATION = /^(?:\d+\.?\d*|\.\d+)$/

/**
 * W3C Server-Timing entries with a duration, as [name, seconds] (`dur` is in milliseconds). An
 * entry without `dur` is no hop and is skipped; a header that does not parse, or a `dur` that is
 * not a non-negative decimal, gives null.
 */
export function parseServerTiming(value: string): [string, number][] | null {
  let at = 0
  const match = (re: RegExp): string | null => {
    re.lastIndex = at
    const m = re.exec(value)
    if (!m) return null
    at = re.lastIndex
    return m[0]
  }
  const out: [string, number][] = []
  for (;;) {
    match(WS)
    const name = match(TOKEN)
    if (name === null) return null
    let dur: string | null = null
    match(WS)
    while (value[at] === ';') {
      at++
      match(WS)
      const key = match(TOKEN)
      if (key === null) return null
      match(WS)
      let param = ''
      if (value[at] === '=') {
        at++
        match(WS)
        const v = value[at] === '"' ? match(QUOTED) : match(TOKEN)
        if (v === null) return null
        param = v
      }
      // The first `dur` counts, as in browsers.
      if (key.toLowerCase() === 'dur' && dur === null) dur = param
      match(WS)
    }
    if (dur !== null) {
      if (!DURATION.test(dur)) return null
      out.push([name, Number(dur) / 1000])
    }
    if (at === value.length) return out
    if (value[at] !== ',') return null
    at++
  }
}

/** The hops object at a dotted path ('' is the body itself) as [name, seconds], or null. */
function jsonHops(body: string, path: string): [string, number][] | null {
  let node: unknown
  try {
    node = JSON.parse(body)
  } catch {
    return null
  }
  for (const key of path.split('.').filter(k => k !== '')) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return null
    node = (node as Record<string, unknown>)[key]
  }
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return null
  const entries = Object.entries(node)
  if (!entries.every(([, v]) => typeof v === 'number' && Number.isFinite(v))) return null
  return entries as [string, number][]
}

/** One answer's raw hop figures, seconds, or null when the source is absent or malformed. */
export function readHops(record: RequestRecord, source: HopSource): [string, number][] | null {
  if ('otlp' in source) return record.hops ?? null
  if ('json' in source) return record.body === undefined ? null : jsonHops(record.body, source.json)
  const value = record.headers?.[source.header.toLowerCase()]
  return value === undefined ? null : parseServerTiming(value)
}

const failed = (r: RequestRecord): boolean => r.error !== null || r.status === null

/** The shared walk: base metrics from each answered request, then its hops in first-seen order. */
function collect(
  records: RequestRecord[],
  base: [string, (r: RequestRecord) => number][],
  hops: HopSource | null
): HttpSamples {
  const samples: Record<string, number[]> = Object.fromEntries(base.map(([m]) => [m, []]))
  const hopSamples = new Map<string, number[]>()
  let errors = 0
  let hopsMissing = 0
  let hopsDropped = 0
  for (const r of records) {
    if (failed(r)) {
      errors++
      continue
    }
    for (const [m, value] of base) samples[m].push(clamp(value(r)))
    // A request outside the traced share has no hops to miss.
    if (!hops || ('otlp' in hops && r.traceId === undefined)) continue
    const figures = readHops(r, hops)
    if (!figures) {
      hopsMissing++
      continue
    }
    const seen = new Set<string>()
    for (const [raw, seconds] of figures) {
      // Trace hops are named from cleaned service names already, `a->b` for a call.
      const metric = `hop:${'otlp' in hops ? raw : cleanHopName(raw)}`
      let values = hopSamples.get(metric)
      if (metric === 'hop:' || seen.has(metric) || (!values && hopSamples.size >= MAX_HOPS)) {
        hopsDropped++
        continue
      }
      seen.add(metric)
      if (!values) hopSamples.set(metric, (values = []))
      values.push(clamp(seconds))
    }
  }
  return {
    metrics: [...base.map(([m]) => m), ...hopSamples.keys()],
    samples: { ...samples, ...Object.fromEntries(hopSamples) },
    errors,
    hopsMissing,
    hopsDropped
  }
}

/**
 * A paced run: `latency` = done − scheduled (coordinated-omission corrected), `latency:sent` =
 * done − sent, `c:lag` = sent − scheduled (the client falling behind), then `hop:<name>`.
 */
export function pacedHttpSamples(records: RequestRecord[], hops: HopSource | null): HttpSamples {
  const scheduled = (r: RequestRecord): number => {
    if (r.scheduled === null) throw new Error('a paced HTTP run has a request without a schedule')
    return r.scheduled
  }
  return collect(
    records,
    [
      ['latency', r => r.done - scheduled(r)],
      ['latency:sent', r => r.done - r.sent],
      ['c:lag', r => r.sent - scheduled(r)]
    ],
    hops
  )
}

/** A burst run: `roundtrip` = done − sent, then `hop:<name>`. */
export const burstHttpSamples = (records: RequestRecord[], hops: HopSource | null): HttpSamples =>
  collect(records, [['roundtrip', r => r.done - r.sent]], hops)

/** One run of an HTTP case: its requests' records, in request order. */
export interface HttpRun {
  index: number
  warmup: boolean
  /** Offered requests/s; null for a burst. */
  rate: number | null
  records: RequestRecord[]
  /** Bytes of one request's body (0 without one). */
  bodyBytes: number
}

/**
 * The input of `summarizeRun` for one HTTP run, with the counts its samples leave out. A paced
 * run's start and length are its schedule's, as for GNES (a run may be a block of a longer
 * stream); a burst's span from its first send to its last answer. No data rate: that is GNES's.
 */
export function httpRunInput(run: HttpRun, hops: HopSource | null): RunInput & HttpSamples {
  const { records, rate } = run
  if (records.length === 0) throw new Error(`HTTP run ${run.index} has no requests`)
  // A loop, not Math.min(...xs): a long run would overflow the argument list.
  const firstSent = records.reduce((t, r) => Math.min(t, r.sent), Infinity)
  const lastDone = records.reduce((t, r) => Math.max(t, r.done), -Infinity)
  const began = rate === null ? firstSent : (records[0].scheduled ?? firstSent)
  return {
    index: run.index,
    warmup: run.warmup,
    startedAt: new Date(began * 1000).toISOString(),
    clientSeconds: rate === null ? lastDone - firstSent : records.length / rate,
    rate,
    requests: records.length,
    payloadBytes: records.length * run.bodyBytes,
    dataRateMBps: null,
    ...(rate === null ? burstHttpSamples(records, hops) : pacedHttpSamples(records, hops))
  }
}

/**
 * A sweep step over HTTP from its requests (after the lead-in): latency from the schedule and from
 * the send, throughput from the answered requests' completions, failed requests as errors.
 */
export function measuredHttpStep(
  offered: number,
  records: RequestRecord[]
): Omit<SweepPoint, 'sustained'> {
  const { samples, errors } = pacedHttpSamples(records, null)
  const latency = latencyHistogram(samples.latency)
  const completions = records
    .filter(r => r.error === null)
    .map(r => r.done)
    .sort((a, b) => a - b)
  return {
    offered,
    achieved: achievedRate(completions),
    requests: records.length,
    errors,
    latency: latency.percentiles,
    latencySent: latencyHistogram(samples['latency:sent']).percentiles,
    histogram: latency.encoded
  }
}
