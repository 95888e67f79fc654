/** Per-hop figures from spans: self times as Jaeger computes them, and the calls between services. */
import type { RequestRecord } from '../src/client/http-load'
import { pacedHttpSamples } from '../src/metrics/http'
import { describeMetric } from '../src/render/metrics'
import { joinTraceHops, traceHops } from '../src/metrics/trace-hops'
import type { Span, SpanKind } from '../src/traces/span'

const T0 = 1_790_000_000_000_000_000n
let next = 1
/** A span of `service` from `from` to `to` microseconds after T0. */
function span(
  service: string,
  kind: SpanKind,
  from: number,
  to: number,
  parent: Span | null
): Span {
  return {
    traceId: 'ab'.repeat(16),
    spanId: (next++).toString(16).padStart(16, '0'),
    parentSpanId: parent?.spanId ?? 'ff'.repeat(8),
    service,
    name: `${service} ${kind}`,
    kind,
    startNs: T0 + BigInt(from * 1000),
    endNs: T0 + BigInt(to * 1000)
  }
}
const us = (n: number): number => n / 1e6

test('a chain: each service its time less its call, each call less the server it reached', () => {
  const s1 = span('relay1', 'server', 0, 1000, null)
  const c1 = span('relay1', 'client', 100, 900, s1)
  const s2 = span('relay2', 'server', 160, 840, c1)
  const c2 = span('relay2', 'client', 200, 700, s2)
  const s3 = span('relay3', 'server', 230, 650, c2)
  const hops = traceHops([s3, c2, s2, c1, s1])
  expect(hops.map(([n]) => n)).toEqual([
    'relay1',
    'relay1->relay2',
    'relay2',
    'relay2->relay3',
    'relay3'
  ])
  const got = Object.fromEntries(hops)
  expect(got.relay1).toBeCloseTo(us(1000 - 800), 12)
  expect(got['relay1->relay2']).toBeCloseTo(us(800 - 680), 12)
  expect(got.relay2).toBeCloseTo(us(680 - 500), 12)
  expect(got['relay2->relay3']).toBeCloseTo(us(500 - 420), 12)
  expect(got.relay3).toBeCloseTo(us(420), 12)
  // The hops add up to the root span: nothing counted twice, nothing left out.
  const total = hops.reduce((t, [, s]) => t + s, 0)
  expect(total).toBeCloseTo(us(1000), 12)
})

test('overlapping children count once, and a child outside its parent only within it', () => {
  const root = span('api', 'server', 0, 1000, null)
  const kids = [
    span('api', 'internal', 100, 400, root),
    span('api', 'internal', 300, 600, root),
    span('api', 'internal', 900, 1300, root)
  ]
  const got = Object.fromEntries(traceHops([root, ...kids]))
  // Root: 1000 less the union [100, 600] ∪ [900, 1000] = 600; the children's own times add to api.
  const own = 1000 - (600 - 100) - (1000 - 900)
  expect(got.api).toBeCloseTo(us(own + 300 + 300 + 400), 12)
})

test('a call to an uninstrumented service stays with its caller; names are cleaned', () => {
  const root = span('shop <b>', 'server', 0, 500, null)
  const db = span('shop <b>', 'client', 100, 400, root)
  const got = traceHops([root, db])
  expect(got).toEqual([['shopb', expect.closeTo(us(500), 12)]])
})

test('traced requests get their trace hops; requests outside the share miss nothing', () => {
  const s1 = span('relay1', 'server', 0, 300, null)
  const traces = new Map([['t1', [s1]]])
  const base = { scheduled: 1, sent: 1, done: 1.001, status: 200, error: null }
  const records: RequestRecord[] = [
    { ...base, traceId: 't1' },
    { ...base, traceId: 't2' },
    { ...base }
  ]
  const joined = joinTraceHops(records, id => ({
    spans: traces.get(id) ?? [],
    complete: traces.has(id)
  }))
  expect(joined.map(r => r.trace)).toEqual([
    { spans: 1, complete: true },
    { spans: 0, complete: false },
    undefined
  ])
  const samples = pacedHttpSamples(joined, { otlp: { sample: 1, flushSec: 2 } })
  expect(samples.samples['hop:relay1']).toEqual([us(300)])
  expect(samples.samples.latency).toHaveLength(3)
  expect(samples.hopsMissing).toBe(1)
})

test('the report tells a call between services from a service’s own time', () => {
  expect(describeMetric('hop:relay1->relay2', true)).toMatch(/call between two services/)
  expect(describeMetric('hop:relay1', true)).toMatch(/self time from its spans/)
})
