/**
 * Per-hop figures from traces on the local engine: the chain of five relays instrumented with the
 * OpenTelemetry SDK (relay_otel.py, from scripts/otel-venv.sh) exporting to the benchmark's own
 * receiver. Real processes on loopback, real spans, no mocks.
 */
import { execFileSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import * as path from 'node:path'
import { sendPaced } from '../src/client/http-load'
import { parseInputs } from '../src/config/inputs'
import { LocalEngine } from '../src/engine/local/engine'
import { readHops } from '../src/metrics/http'
import { joinTraceHops } from '../src/metrics/trace-hops'
import { runSuite } from '../src/pipeline'
import { quantile } from '../src/stats/sample'
import { resolveTopology } from '../src/topology/load'
import type { HttpTopology } from '../src/topology/schema'
import { quiet } from './helpers/log'
import { expectStorableResult } from './helpers/result'
import { tmp } from './helpers/tmp'

const ROOT = path.join(__dirname, '..')
const CHAIN = path.join(ROOT, 'topologies', 'examples', 'http', 'chain-otlp.yml')
const RELAYS = ['relay1', 'relay2', 'relay3', 'relay4', 'relay5']

const sorted = (xs: number[]): number[] => [...xs].sort((a, b) => a - b)
const median = (xs: number[]): number => quantile(sorted(xs), 0.5)
/** The range of the central 80 % of a figure's values: how far it moves from request to request. */
const spreadOf = (xs: number[]): number => quantile(sorted(xs), 0.9) - quantile(sorted(xs), 0.1)

beforeAll(() => {
  // The SDK's venv (a pip install from PyPI the first time, cached in .cache/otel-venv after).
  execFileSync(path.join(ROOT, 'scripts', 'otel-venv.sh'), { stdio: 'ignore', timeout: 300_000 })
})

test('each relay: the self time of its spans is the time it reports itself, within its spread, request by request', async () => {
  const topology = resolveTopology(CHAIN).topology as HttpTopology
  const engine = new LocalEngine({ version: '0.0.47' }, randomUUID(), () => undefined)
  await engine.prepare(false)
  const dep = await engine.start(topology, { logDir: tmp(), readyTimeoutMs: 60_000 })
  try {
    const traces = dep.traces!
    expect(traces.httpEndpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
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
    const ids = records.map(r => r.traceId!)
    await traces.settle(ids, { maxMs: 5000, quietMs: 100 })
    // The first 50 requests warm the relays up (connections, the SDK's first exports).
    const joined = joinTraceHops(records, id => ({
      complete: traces.complete(id),
      spans: traces.take(id)
    })).slice(50)
    expect(joined.every(r => r.error === null && r.hops !== undefined)).toBe(true)
    expect(joined[0].hops!.map(([name]) => name)).toEqual(
      RELAYS.flatMap((r, k) => (k < 4 ? [r, `${r}->${RELAYS[k + 1]}`] : [r]))
    )
    for (const relay of RELAYS) {
      const own = joined.map(r => Object.fromEntries(readHops(r, { json: 'hops' })!)[relay])
      const traced = joined.map(r => Object.fromEntries(r.hops!)[relay])
      // relay_otel.py's spans cover the relay's own interval on another clock: its SERVER span
      // from the request line to the answer composed, its CLIENT span over its wait for the next
      // relay. The self time the benchmark computes from them is the relay's own figure: the two
      // medians agree within the figures' spread, and per request they differ by the SDK's work
      // in ending the client span (about 20 µs here, which the relay's clock counts as its wait;
      // none for the last relay), a shift far steadier than either figure.
      const shift = traced.map((t, k) => t - own[k])
      expect(Math.abs(median(traced) - median(own))).toBeLessThan(spreadOf(own))
      expect(quantile(sorted(shift), 0.05)).toBeGreaterThan(-0.00001)
      expect(median(shift)).toBeLessThan(0.0001)
      expect(spreadOf(shift)).toBeLessThan(spreadOf(own) / 2)
    }
    expect(traces.counts().dropped).toMatchObject({ malformed: 0, tooLarge: 0, overflow: 0 })
  } finally {
    await engine.shutdown()
  }
  // Closed with the deployment: nothing listens any more.
  await expect(fetch(`${dep.traces!.httpEndpoint}/v1/traces`)).rejects.toThrow()
})

test('a suite with hops: { otlp } publishes the trace hops beside latency', async () => {
  const inputs = parseInputs({
    engine: 'local',
    topology: CHAIN,
    profiles: 'minimal',
    runs: '2',
    requests: '20',
    'warmup-requests': '20',
    'out-dir': tmp()
  })
  const result = await runSuite(inputs, { suiteId: randomUUID(), log: quiet })
  expectStorableResult(result)
  const [minimal] = result.cases
  const hops = RELAYS.flatMap((r, k) => (k < 4 ? [r, `${r}->${RELAYS[k + 1]}`] : [r]))
  expect(minimal.metrics).toEqual([
    'latency',
    'latency:sent',
    'c:lag',
    ...hops.map(h => `hop:${h}`)
  ])
  // Each relay's SERVER span, and a CLIENT span per call to the next one.
  const spansPerTrace = 2 * RELAYS.length - 1
  for (const run of minimal.runs) {
    const t = run.traces!
    expect([t.traced, t.complete, t.spans]).toEqual([20, 20, 20 * spansPerTrace])
    expect(t.dropped).toMatchObject({ malformed: 0, tooLarge: 0, overflow: 0, afterClose: 0 })
  }
  for (const run of minimal.runs.filter(r => !r.warmup)) {
    expect(run.summaries['hop:relay3'].n).toBe(20)
    expect(run.summaries['hop:relay1'].median).toBeLessThan(run.summaries.latency.median)
  }
})
