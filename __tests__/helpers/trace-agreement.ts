import { sendPaced } from '../../src/client/http-load'
import type { Deployment } from '../../src/engine/types'
import { readHops } from '../../src/metrics/http'
import { joinTraceHops } from '../../src/metrics/trace-hops'
import { median, quantile } from '../../src/stats/sample'

/** The relays of chain-otlp.yml, in the order a request passes them. */
export const RELAYS = ['relay1', 'relay2', 'relay3', 'relay4', 'relay5']

const sorted = (xs: number[]): number[] => [...xs].sort((a, b) => a - b)
/** The range of the central 80 % of a figure's values: how far it moves from request to request. */
const spreadOf = (xs: number[]): number => quantile(sorted(xs), 0.9) - quantile(sorted(xs), 0.1)

/** One relay's self time from its spans beside its own figure, in seconds. */
export interface Agreement {
  relay: string
  traced: number
  own: number
  spread: number
}

/**
 * Drives a deployed chain-otlp.yml (200 traced requests at 20 req/s, the first 50 warming it up)
 * and checks, for every relay, that the self time the benchmark computes from its spans is the
 * time the relay reports itself (JSON `hops`), request by request. Returns the medians compared.
 */
export async function expectSelfTimesAgree(dep: Deployment): Promise<Agreement[]> {
  const traces = dep.traces!
  const records = await sendPaced(
    {
      url: `http://${dep.frontend.host}:${dep.frontend.port}/`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"payload": "x"}',
      status: [200],
      timeoutMs: 10_000,
      keep: 'body'
    },
    20,
    200,
    { trace: { sample: 1, started: (id, parent) => traces.expect(id, parent) } }
  )
  await traces.settle(
    records.map(r => r.traceId!),
    { maxMs: 5000, quietMs: 100 }
  )
  // The first 50 requests warm the relays up (connections, the SDK's first exports).
  const joined = joinTraceHops(records, id => ({
    complete: traces.complete(id),
    spans: traces.take(id)
  })).slice(50)
  expect(joined.every(r => r.error === null && r.hops !== undefined)).toBe(true)
  expect(joined[0].hops!.map(([name]) => name)).toEqual(
    RELAYS.flatMap((r, k) => (k < 4 ? [r, `${r}->${RELAYS[k + 1]}`] : [r]))
  )
  const agreements = RELAYS.map(relay => {
    const own = joined.map(r => Object.fromEntries(readHops(r, { json: 'hops' })!)[relay])
    const traced = joined.map(r => Object.fromEntries(r.hops!)[relay])
    // relay_otel.py's spans cover the relay's own interval on another clock: its SERVER span
    // from the request line to the answer composed, its CLIENT span over its wait for the next
    // relay. The self time the benchmark computes from them is the relay's own figure: the two
    // medians agree within the figures' spread, and per request they differ by the SDK's work
    // in ending the client span (about 20 µs on this project's machines, which the relay's clock
    // counts as its wait; none for the last relay), a shift far steadier than either figure.
    const shift = traced.map((t, k) => t - own[k])
    expect(Math.abs(median(traced) - median(own))).toBeLessThan(spreadOf(own))
    expect(quantile(sorted(shift), 0.05)).toBeGreaterThan(-0.00001)
    expect(median(shift)).toBeLessThan(0.0001)
    expect(spreadOf(shift)).toBeLessThan(spreadOf(own) / 2)
    return { relay, traced: median(traced), own: median(own), spread: spreadOf(own) }
  })
  expect(traces.counts().dropped).toMatchObject({ malformed: 0, tooLarge: 0, overflow: 0 })
  return agreements
}

/** The agreements as a line for a test's log: relay traced/own (spread), in ms. */
export const agreementLine = (as: Agreement[]): string =>
  as
    .map(
      a =>
        `${a.relay} ${(a.traced * 1000).toFixed(3)}/${(a.own * 1000).toFixed(3)} ` +
        `(${(a.spread * 1000).toFixed(3)})`
    )
    .join(', ')
