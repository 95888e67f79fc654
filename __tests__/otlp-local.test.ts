/**
 * Per-hop figures from traces on the local engine: the chain of five relays instrumented with the
 * OpenTelemetry SDK (relay_otel.py, from scripts/otel-venv.sh) exporting to the benchmark's own
 * receiver. Real processes on loopback, real spans, no mocks.
 */
import { execFileSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import * as path from 'node:path'
import { parseInputs } from '../src/config/inputs'
import { LocalEngine } from '../src/engine/local/engine'
import { runSuite } from '../src/pipeline'
import { resolveTopology } from '../src/topology/load'
import type { HttpTopology } from '../src/topology/schema'
import { quiet } from './helpers/log'
import { expectStorableResult, usageMetrics } from './helpers/result'
import { tmp } from './helpers/tmp'
import { agreementLine, expectSelfTimesAgree, RELAYS } from './helpers/trace-agreement'

const ROOT = path.join(__dirname, '..')
const CHAIN = path.join(ROOT, 'topologies', 'examples', 'http', 'chain-otlp.yml')

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
    expect(dep.traces!.httpEndpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    console.log(
      `local: self time from spans/own figure (spread), ms: ${agreementLine(await expectSelfTimesAgree(dep))}`
    )
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
    ...hops.map(h => `hop:${h}`),
    ...usageMetrics(RELAYS)
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
