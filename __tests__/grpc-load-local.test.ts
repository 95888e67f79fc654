/**
 * The gRPC load driver against the shipped echo service (examples/services/grpc-echo) run as real
 * processes on loopback, no mocks: the open-loop schedule, a stalled server counted from the
 * schedule, statuses as success criteria; then the shipped gRPC chain through the whole suite on
 * the local engine.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { once } from 'node:events'
import * as fs from 'node:fs'
import * as path from 'node:path'
import {
  callBurst,
  callPaced,
  grpcClient,
  whenConnected,
  type GrpcTarget
} from '../src/client/grpc-load'
import { grpcTarget } from '../src/client/grpc-request'
import { parseInputs } from '../src/config/inputs'
import { pacedHttpSamples } from '../src/metrics/http'
import { achievedRate } from '../src/metrics/sweep'
import { runSuite } from '../src/pipeline'
import { median, quantile } from '../src/stats/sample'
import type { GrpcCall } from '../src/topology/grpc-schema'
import { quiet } from './helpers/log'
import { expectStorableResult, usageMetrics } from './helpers/result'
import { tmp } from './helpers/tmp'

const ECHO = path.join(__dirname, '..', 'examples', 'services', 'grpc-echo')
const CHAIN = path.join(__dirname, '..', 'topologies', 'examples', 'http', 'grpc-chain.yml')
const TRACED = path.join(__dirname, '..', 'topologies', 'examples', 'http', 'grpc-chain-otlp.yml')
const sorted = (xs: number[]): number[] => [...xs].sort((a, b) => a - b)

interface Echo {
  address: string
  child: ChildProcess
  close: () => Promise<void>
}

/** The echo service in its own process, so a stall of it (SIGSTOP) is the server's alone. */
async function startEcho(env: Record<string, string> = {}): Promise<Echo> {
  const child = spawn(process.execPath, ['server.mjs'], {
    cwd: ECHO,
    env: { ...process.env, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'inherit']
  })
  const [line] = (await once(child.stdout!, 'data')) as [Buffer]
  const port = /listening on (\d+)/.exec(String(line))![1]
  return {
    address: `127.0.0.1:${port}`,
    child,
    close: async () => {
      child.kill('SIGCONT')
      child.kill()
      if (child.exitCode === null) await once(child, 'exit')
    }
  }
}

const call = (more: Partial<GrpcCall> = {}): GrpcCall => ({
  proto: path.join(ECHO, 'echo.proto'),
  call: 'echo.Echo/Say',
  data: { message: 'hello' },
  metadata: { 'x-bench': 'test' },
  status: [0],
  deadlineSec: 5,
  ...more
})

/** The services' usage metrics a run of the chain publishes (docs/metrics.md). */
const USAGE = usageMetrics(['grpc1', 'grpc2', 'grpc3'])

describe('the gRPC driver against the echo service', () => {
  let echo: Echo
  beforeAll(async () => (echo = await startEcho({ REFLECTION: '1' })))
  afterAll(() => echo.close())

  /** A connected channel for `target`, closed after `work`. */
  async function withClient<T>(
    target: GrpcTarget,
    work: (c: ReturnType<typeof grpcClient>) => Promise<T>
  ) {
    const client = grpcClient(target)
    try {
      await whenConnected(client, target.address, target.deadlineMs)
      return await work(client)
    } finally {
      client.close()
    }
  }

  // The HTTP driver's tests pace at 50 req/s; 200 req/s is four times that, a second of calls.
  it.each([
    [50, 40],
    [200, 200]
  ])(
    'keeps the schedule at %d calls/s (%d calls): achieved within 5 %% of offered, on time',
    async (rate, count) => {
      const target = await grpcTarget(call(), echo.address)
      const records = await withClient(target, c => callPaced(c, target, rate, count))
      expect(records).toHaveLength(count)
      expect(records.every(r => r.status === 0 && r.error === null)).toBe(true)
      const t0 = records[0].scheduled!
      records.forEach((r, i) => expect(r.scheduled! - t0).toBeCloseTo(i / rate, 6))
      const achieved = achievedRate(records.map(r => r.sent))
      expect(Math.abs(achieved - rate) / rate).toBeLessThan(0.05)
      const { samples } = pacedHttpSamples(records, null)
      // Nothing leaves before its time. The ticker wakes within some 0.1 ms, but this shared
      // machine (load average near 7 on 2 cores while this was written) takes the main thread
      // away for tens of ms now and then, the HTTP driver's as much: c:lag medians of 0.2–5.9 ms
      // and p90s of 0.8–68 ms for either, 400 requests at 200/s. So the bound is the median's.
      records.forEach(r => expect(r.sent).toBeGreaterThanOrEqual(r.scheduled! - 0.001))
      expect(median(samples['c:lag'])).toBeLessThan(0.01)
      expect(median(samples.latency)).toBeLessThan(0.05)
    }
  )

  it('counts a stalled server from the schedule: every call due while it was stopped shows the wait', async () => {
    const target = await grpcTarget(call(), echo.address)
    const at = Date.now() + 300
    // The server stops 0.5 s into a 2 s schedule at 50 calls/s and resumes 1 s later.
    const stall = new Promise<[number, number]>(resolve =>
      setTimeout(
        () => {
          const from = Date.now() / 1000
          echo.child.kill('SIGSTOP')
          setTimeout(() => {
            echo.child.kill('SIGCONT')
            resolve([from, Date.now() / 1000])
          }, 1000)
        },
        at + 500 - Date.now()
      )
    )
    const records = await withClient(target, c => callPaced(c, target, 50, 100, { startAtMs: at }))
    const [from, to] = await stall
    expect(records.every(r => r.error === null)).toBe(true)
    const { samples } = pacedHttpSamples(records, null)
    // The client was not stalled: it kept sending while the server stood still, open loop (the
    // machine's own hiccups, above, are tens of ms against the stop's 1 s).
    expect(quantile(sorted(samples['c:lag']), 0.9)).toBeLessThan(0.1)
    const due = records.filter(r => r.scheduled! > from + 0.01 && r.scheduled! < to - 0.01)
    expect(due.length).toBeGreaterThanOrEqual(48)
    // Each waited until the server resumed: latency from its due time covers the rest of the stop.
    for (const r of due) {
      expect(r.done).toBeGreaterThanOrEqual(to - 0.005)
      expect(r.done - r.scheduled!).toBeGreaterThanOrEqual(to - r.scheduled! - 0.005)
    }
    expect(Math.max(...samples.latency)).toBeGreaterThan(0.9)
    expect(samples.latency.filter(l => l > 0.5).length).toBeGreaterThanOrEqual(20)
    // Calls due well before the stop were answered at once.
    const before = records.filter(r => r.scheduled! < from - 0.1)
    expect(before.length).toBeGreaterThanOrEqual(15)
    expect(median(before.map(r => r.done - r.scheduled!))).toBeLessThan(0.02)
  })

  it('records statuses outside the accepted ones as errors named by status, and accepts the listed ones', async () => {
    const notFound = await grpcTarget(call({ data: { message: 'x', status: 5 } }), echo.address)
    const failed = await withClient(notFound, c => callPaced(c, notFound, 50, 5))
    failed.forEach(r =>
      expect(r).toMatchObject({ status: 5, error: 'NOT_FOUND: echo was asked for status 5' })
    )
    expect(pacedHttpSamples(failed, null).errors).toBe(5)
    const accepted = { ...notFound, status: [0, 5] }
    const ok = await withClient(accepted, c => callBurst(c, accepted, 5))
    ok.forEach(r => expect(r).toMatchObject({ status: 5, error: null, scheduled: null }))

    const slow = await grpcTarget(call({ data: { sleep_ms: 400 }, deadlineSec: 0.1 }), echo.address)
    const [late] = await withClient(slow, c => callPaced(c, slow, 20, 1))
    expect(late).toMatchObject({ status: 4, error: expect.stringMatching(/^DEADLINE_EXCEEDED/) })
    expect(late.done - late.sent).toBeGreaterThanOrEqual(0.095)
    expect(late.done - late.sent).toBeLessThan(0.3)
  })

  it('traces the sampled share of calls: a fresh trace id each, announced before it is sent and kept in the record', async () => {
    const target = await grpcTarget(call(), echo.address)
    const started: string[] = []
    const trace = { sample: 1, started: (id: string) => void started.push(id) }
    const all = await withClient(target, c => callPaced(c, target, 50, 4, { trace }))
    expect(all.map(r => r.traceId)).toEqual(started)
    expect(new Set(started).size).toBe(4)
    for (const id of started) expect(id).toMatch(/^[0-9a-f]{32}$/)
    const none = await withClient(target, c =>
      callBurst(c, target, 4, { trace: { sample: 0, started: () => undefined } })
    )
    expect(none.map(r => r.traceId)).toEqual([undefined, undefined, undefined, undefined])
  })

  it('finds the call by server reflection and checks the data against it there', async () => {
    const reflected = await grpcTarget(call({ proto: undefined, reflection: true }), echo.address)
    const fromFile = await grpcTarget(call(), echo.address)
    expect(reflected.path).toBe('/echo.Echo/Say')
    expect(reflected.request).toEqual(fromFile.request)
    await expect(
      grpcTarget(call({ proto: undefined, reflection: true, data: { mesage: 'x' } }), echo.address)
    ).rejects.toThrow(
      /reflection at 127\.0\.0\.1:\d+, echo\.Echo\/Say: data\.mesage: message echo\.EchoRequest has no field 'mesage'/
    )
    await expect(
      grpcTarget(call({ proto: undefined, reflection: true, call: 'echo.Nope/Say' }), echo.address)
    ).rejects.toThrow(/gRPC server reflection at 127\.0\.0\.1:\d+ gave no 'echo\.Nope'/)
  })

  it('fails to connect with a message naming the address, and throws for a bad target before any call', async () => {
    const target = await grpcTarget(call({ deadlineSec: 0.3 }), '127.0.0.1:1')
    await expect(withClient(target, async () => null)).rejects.toThrow(
      /gRPC service at 127\.0\.0\.1:1: /
    )
    const client = grpcClient(target)
    try {
      await expect(callPaced(client, { ...target, path: 'Say' }, 50, 1)).rejects.toThrow(
        /bad gRPC target: path/
      )
      await expect(callPaced(client, target, 0, 1)).rejects.toThrow(/bad rate 0/)
    } finally {
      client.close()
    }
  })
})

describe('the gRPC chain through the suite on the local engine', () => {
  const suite = (topology: string) =>
    runSuite(
      parseInputs({
        engine: 'local',
        topology,
        profiles: 'minimal',
        runs: '2',
        requests: '20',
        'warmup-requests': '10',
        'out-dir': tmp()
      }),
      { suiteId: randomUUID(), log: quiet }
    )

  test('measures latency from the schedule at the minimal rate', async () => {
    const result = await suite(CHAIN)
    expectStorableResult(result)
    const [minimal] = result.cases
    expect(minimal).toMatchObject({ id: 'grpc-chain', kind: 'http', headline: 'latency' })
    expect(minimal.profile).toEqual({ kind: 'minimal', rate: 20 })
    // Each service's CPU per request and peak memory, read from its processes, beside the latency.
    expect(minimal.metrics).toEqual(['latency', 'latency:sent', 'c:lag', ...USAGE])
    const runs = minimal.runs.filter(r => !r.warmup)
    expect(runs).toHaveLength(2)
    for (const run of runs) {
      expect(run.summaries.latency.n).toBe(20)
      expect(run.rate).toBe(20)
      expect(run.summaries['c:lag'].median).toBeLessThan(0.02)
    }
    // Three processes relaying one call each: answered well within the 50 ms between calls.
    expect(minimal.best.latency).toBeLessThan(0.05)
  })

  test('traced: every call continued by the three services, their hops from the spans beside latency', async () => {
    const result = await suite(TRACED)
    expectStorableResult(result)
    const [minimal] = result.cases
    const hops = ['grpc1', 'grpc1->grpc2', 'grpc2', 'grpc2->grpc3', 'grpc3']
    expect(minimal.metrics).toEqual([
      'latency',
      'latency:sent',
      'c:lag',
      ...hops.map(h => `hop:${h}`),
      ...USAGE
    ])
    for (const run of minimal.runs) {
      // A SERVER span per service and a CLIENT span per call to the next: 5 a call.
      const t = run.traces!
      expect([t.traced, t.complete, t.spans]).toEqual([
        run.requests,
        run.requests,
        5 * run.requests
      ])
      expect(t.dropped).toMatchObject({ malformed: 0, tooLarge: 0, unknownTrace: 0, late: 0 })
    }
    for (const run of minimal.runs.filter(r => !r.warmup)) {
      for (const h of hops) expect(run.summaries[`hop:${h}`].n).toBe(20)
      // The parts lie inside the call as the driver saw it.
      const parts = hops.reduce((sum, h) => sum + run.summaries[`hop:${h}`].median, 0)
      expect(parts).toBeLessThan(run.summaries.latency.median)
      expect(run.summaries['hop:grpc1'].median).toBeGreaterThan(0)
    }
  })

  test('calls answering a status outside the accepted ones fail the profile, counted by status', async () => {
    const file = path.join(tmp(), 'grpc-chain-5.yml')
    fs.writeFileSync(
      file,
      fs
        .readFileSync(CHAIN, 'utf8')
        .replace(/\.\.\/\.\.\/\.\.\/examples/g, path.join(__dirname, '..', 'examples'))
        .replace('data: { message: hello }', 'data: { message: hello, status: 7 }')
    )
    await expect(suite(file)).rejects.toThrow(
      /50 of 50 requests to gRPC echo\.Echo\/Say at 127\.0\.0\.1:\d+ failed \(50 PERMISSION_DENIED\); the first: PERMISSION_DENIED: grpc3 was asked for status 7/
    )
  })
})
