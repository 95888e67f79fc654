/**
 * The load model's pure parts: plans of streams, paced metrics joined by request id (with a
 * constructed stall that only the schedule-based latency sees), the sweep's saturation rule and
 * search, the latency histogram, and the minimal-load rate of the standard topologies.
 */
import * as hdr from 'hdr-histogram-js'
import type { StreamReport } from '../src/client/load-client'
import { scheduledSeconds, sweepStepPlan, SWEEP_MIN_REQUESTS } from '../src/client/plan'
import { DRIVERS, profilePlan, warmupRequestsOf } from '../src/pipeline/suite/drivers'
import { PROFILE_KINDS, profileKey } from '../src/profile/definition'
import { PROFILE_TRAITS } from '../src/profile/traits'
import type { DumpedEnvelope } from '../src/metrics/envelope'
import { latencyHistogram } from '../src/metrics/histogram'
import { completions, pacedMetricNames, pacedSamples, splitStream } from '../src/metrics/paced'
import {
  achievedRate,
  boundSeconds,
  isSustained,
  maxSustainedThroughput,
  throughputIsLowerBound,
  nextSweepRate,
  type SweepPlan,
  type SweepPoint
} from '../src/metrics/sweep'
import { parseLatencyBound } from '../src/config/latency-bound'
import { resolveTopology } from '../src/topology/load'
import type { Load } from '../src/result/schema'

const LOAD: Load = {
  docs: 500,
  batchSize: 10,
  docBytes: 1000,
  runs: 3,
  requests: 20,
  warmupRequests: 5
}

describe('client plans', () => {
  it('a paced profile: one stream on schedule, its warm-up and runs as consecutive parts', () => {
    const { plan, parts } = profilePlan({ kind: 'minimal', rate: 5 }, LOAD)
    // One StreamCall: GNES's frontend reconnects its routers at every call.
    expect(plan.streams).toEqual([{ docs: 650, rate: 5 }])
    expect(parts).toEqual([
      [
        { warmup: true, requests: 5 },
        { warmup: false, requests: 20 },
        { warmup: false, requests: 20 },
        { warmup: false, requests: 20 }
      ]
    ])
    // 65 requests at 5 req/s.
    expect(scheduledSeconds(plan)).toBeCloseTo(13, 9)
  })
  it('a paced profile given a start on the clock carries it; a burst has no schedule to start', () => {
    expect(profilePlan({ kind: 'minimal', rate: 5 }, LOAD, 1795000000.25).plan.streams).toEqual([
      { docs: 650, rate: 5, at: 1795000000.25 }
    ])
    for (const s of profilePlan({ kind: 'burst' }, LOAD, 1795000000.25).plan.streams) {
      expect(s).not.toHaveProperty('at')
    }
  })
  it('a burst: a warm-up stream, then one stream per run carrying the standard documents', () => {
    const { plan, parts } = profilePlan({ kind: 'burst' }, LOAD)
    expect(plan.streams).toEqual([
      { docs: 50, rate: null },
      { docs: 500, rate: null },
      { docs: 500, rate: null },
      { docs: 500, rate: null }
    ])
    expect(parts.map(p => p[0])).toEqual([
      { warmup: true, requests: 5 },
      { warmup: false, requests: 50 },
      { warmup: false, requests: 50 },
      { warmup: false, requests: 50 }
    ])
    expect(scheduledSeconds(plan)).toBe(0)
    expect(
      profilePlan({ kind: 'burst' }, { ...LOAD, warmupRequests: 0 }).plan.streams
    ).toHaveLength(3)
  })
  it('a sweep step: about a second of lead-in, then its seconds at the rate (at least SWEEP_MIN_REQUESTS)', () => {
    expect(sweepStepPlan(40, 5, LOAD)).toEqual({
      plan: { batchSize: 10, docBytes: 1000, streams: [{ docs: 2050, rate: 40 }] },
      parts: [
        [
          { warmup: true, requests: 5 },
          { warmup: false, requests: 200 }
        ]
      ]
    })
    expect(sweepStepPlan(1, 5, LOAD).parts).toEqual([
      [
        { warmup: true, requests: 1 },
        { warmup: false, requests: SWEEP_MIN_REQUESTS }
      ]
    ])
  })
  it('auto warm-up: 10 s of a paced profile (at least 5 requests), 10 requests before a burst', () => {
    const auto = { ...LOAD, warmupRequests: 'auto' as const }
    expect(warmupRequestsOf({ kind: 'minimal', rate: 5 }, auto)).toBe(50)
    expect(warmupRequestsOf({ kind: 'minimal', rate: 0.5 }, auto)).toBe(5)
    expect(warmupRequestsOf({ kind: 'paced', rate: 1 }, auto)).toBe(10)
    expect(warmupRequestsOf({ kind: 'burst' }, auto)).toBe(10)
    expect(warmupRequestsOf({ kind: 'minimal', rate: 5 }, LOAD)).toBe(5)
    expect(profilePlan({ kind: 'minimal', rate: 5 }, auto).parts[0][0]).toEqual({
      warmup: true,
      requests: 50
    })
    // A sweep step leads in with about a second of requests whatever the warm-up.
    expect(sweepStepPlan(40, 5, auto).parts[0][0]).toEqual({ warmup: true, requests: 40 })
  })
  it('splits a stream into parts with their own request ids and schedule', () => {
    const sent = [0, 0.2, 0.4, 0.6]
    const [lead, run] = splitStream(stream(sent), answered(sent), [1, 3])
    expect(lead.report).toMatchObject({ requests: 1, responses: 1 })
    expect(run.report.requests).toBe(3)
    expect(run.report.scheduled!.map(t => t - T0)).toEqual(
      [0.2, 0.4, 0.6].map(x => expect.closeTo(x, 6))
    )
    expect(run.envelopes.map(e => e.requestId)).toEqual([0, 1, 2])
    expect(pacedSamples(run.report, run.envelopes).samples.latency).toHaveLength(3)
    expect(() => splitStream(stream(sent), answered(sent), [1, 2])).toThrow(/parts add up to 3/)
  })
  it('series keys: profiles and rates are never mixed, a sweep is one series', () => {
    expect(profileKey({ kind: 'minimal', rate: 0.5 })).toBe('minimal@0.5')
    expect(profileKey({ kind: 'paced', rate: 0.1 + 0.2 })).toBe('paced@0.3')
    expect(profileKey({ kind: 'sweep', auto: true, rates: [5, 10] })).toBe('sweep')
    expect(profileKey({ kind: 'burst' })).toBe('burst')
  })
})

const T0 = 1_700_000_000
/** An envelope: frontend [start, end], then two routers [start, end], in seconds after T0. */
const envelope = (
  requestId: number,
  f: [number, number],
  r1: [number, number],
  r2: [number, number]
): DumpedEnvelope => ({
  requestId,
  routes: [f, r1, r2].map(([s, e], i) => ({
    service: i ? 'BaseRouter' : 'FrontendService',
    start: T0 + s,
    end: T0 + e
  }))
})

/** A stream paced at 5 req/s; `sentAt` gives each request's actual hand-over (a stall delays them). */
function stream(sentAt: number[]): StreamReport {
  return {
    stream: 0,
    requests: sentAt.length,
    responses: sentAt.length,
    startedAt: T0,
    seconds: 2,
    rate: 5,
    scheduled: sentAt.map((_, j) => T0 + j * 0.2),
    sent: sentAt.map(s => T0 + s)
  }
}

/** Each request spends 10 ms into the frontend, 5 + 1 + 5 + 1 ms inside, whenever it is sent. */
const answered = (sentAt: number[]): DumpedEnvelope[] =>
  sentAt.map((s, j) =>
    envelope(j, [s + 0.01, s + 0.5], [s + 0.015, s + 0.016], [s + 0.021, s + 0.022])
  )

describe('the drivers table', () => {
  it('plans runs for every kind that publishes them, and a paired profile for every kind that pairs', () => {
    for (const kind of PROFILE_KINDS) {
      const traits = PROFILE_TRAITS[kind]
      expect([kind, DRIVERS[kind].runs !== null]).toEqual([kind, traits.publishes !== 'sweep'])
      expect([kind, DRIVERS[kind].paired !== null]).toEqual([kind, traits.pairs !== null])
    }
  })
  it('takes each rate from its input, a minimal rate left unset from the case', () => {
    const unset = { 'minimal-rate': null, rate: 3 }
    expect(DRIVERS.minimal.runs.profile(unset, 0.5)).toEqual({ kind: 'minimal', rate: 0.5 })
    expect(DRIVERS.minimal.runs.profile({ ...unset, 'minimal-rate': 2 }, 0.5).rate).toBe(2)
    expect(DRIVERS.paced.runs.profile(unset, 0.5)).toEqual({ kind: 'paced', rate: 3 })
  })
  it("drops a burst's warm-up after another profile warmed the deployment; paced streams keep theirs", () => {
    expect(DRIVERS.burst.load(LOAD, true)).toEqual(LOAD)
    expect(DRIVERS.burst.load(LOAD, false)).toEqual({ ...LOAD, warmupRequests: 0 })
    for (const kind of ['minimal', 'paced', 'sweep'] as const) {
      expect(DRIVERS[kind].load(LOAD, false)).toEqual(LOAD)
    }
  })
})

describe('paced metrics', () => {
  it('keep every hop the timestamps bound and leave out what the schedule sets', () => {
    const sent = [0, 0.2, 0.4, 0.6]
    const { metrics, samples, missing } = pacedSamples(stream(sent), answered(sent))
    expect(metrics).toEqual(pacedMetricNames(2))
    expect(metrics).not.toContain('roundtrip')
    expect(metrics).not.toContain('r2->f:send')
    expect(missing).toBe(0)
    for (const v of samples.latency) expect(v).toBeCloseTo(0.022, 6)
    for (const v of samples['c->f:send']) expect(v).toBeCloseTo(0.01, 6)
    for (const v of samples.path) expect(v).toBeCloseTo(0.012, 6)
    for (const v of samples['f->r1:send']) expect(v).toBeCloseTo(0.005, 6)
    for (const v of samples['r1->r2:send']) expect(v).toBeCloseTo(0.005, 6)
    for (const v of samples['r2:proc']) expect(v).toBeCloseTo(0.001, 6)
    for (const v of samples['f:send']) expect(v).toBeCloseTo(0.2, 6)
  })
  it('a stalled stream: latency from the schedule shows the stall, latency from the send hides it', () => {
    // The stream stalls for 0.7 s before request 2: requests 2 and 3 go late (coordinated omission).
    const sent = [0, 0.2, 1.1, 1.12]
    const { samples } = pacedSamples(stream(sent), answered(sent))
    expect(samples['latency:sent'].every(v => Math.abs(v - 0.022) < 1e-6)).toBe(true)
    expect(samples['c:lag'][2]).toBeCloseTo(0.7, 6)
    expect(samples['c:lag'][3]).toBeCloseTo(0.52, 6)
    expect(samples.latency[2]).toBeCloseTo(0.722, 6)
    expect(samples.latency[3]).toBeCloseTo(0.542, 6)
    // The uncorrected median would still read 22 ms; the corrected p99 reads the stall.
    const corrected = latencyHistogram(samples.latency).percentiles
    const naive = latencyHistogram(samples['latency:sent']).percentiles
    expect(naive.p99).toBeLessThan(0.023)
    expect(corrected.p99).toBeGreaterThan(0.72)
  })
  it('joins envelopes by request id in any receive order and counts the unanswered', () => {
    const sent = [0, 0.2, 0.4, 0.6]
    const env = answered(sent)
    const { samples, missing } = pacedSamples(stream(sent), [env[2], env[0], env[1]])
    expect(missing).toBe(1)
    expect(samples.latency).toHaveLength(3)
    expect(() => pacedSamples(stream(sent), [env[0], env[0]])).toThrow(/request 0 does not belong/)
    expect(() => pacedSamples(stream(sent), [envelope(9, [0, 1], [0, 1], [0, 1])])).toThrow(
      /request 9 does not belong to a stream of 4 requests/
    )
  })
  it('completions are the last routers’ ends in time order; achieved rate spans first to last', () => {
    const sent = [0, 0.2, 0.4, 0.6]
    const done = completions(answered(sent).reverse())
    expect(done.map(t => t - T0)).toEqual(
      [0.022, 0.222, 0.422, 0.622].map(x => expect.closeTo(x, 6))
    )
    expect(achievedRate(done)).toBeCloseTo(5, 4)
    expect(achievedRate(done.slice(0, 1))).toBe(0)
  })
})

describe('latency histogram', () => {
  it('reads percentiles to 3 significant digits and encodes a standard HdrHistogram', () => {
    const values = Array.from({ length: 1000 }, (_, i) => 0.001 * (i + 1))
    const { percentiles, encoded } = latencyHistogram(values)
    expect(percentiles.n).toBe(1000)
    expect(percentiles.p50).toBeCloseTo(0.5, 2)
    expect(percentiles.p99).toBeCloseTo(0.99, 2)
    expect(percentiles.max).toBeCloseTo(1, 2)
    const decoded = hdr.decodeFromCompressedBase64(encoded)
    expect(decoded.totalCount).toBe(1000)
    expect(decoded.getValueAtPercentile(50) / 1e6).toBeCloseTo(0.5, 2)
    decoded.destroy()
  })
})

const point = (offered: number, achieved: number, p99: number, errors = 0): SweepPoint => {
  const latency = { n: 20, p50: p99 / 2, p90: p99, p99, max: p99, mean: p99 / 2 }
  const p = {
    offered,
    achieved,
    requests: 20,
    errors,
    latency,
    latencySent: latency,
    histogram: '',
    sustained: false
  }
  return { ...p, sustained: isSustained(p, 0.1) }
}

describe('sweep rule and search', () => {
  it('sustained: no errors, achieved ≥ 95 % of offered, p99 within the bound', () => {
    expect(point(10, 9.5, 0.05).sustained).toBe(true)
    expect(point(10, 9.4, 0.05).sustained).toBe(false)
    expect(point(10, 10, 0.11).sustained).toBe(false)
    expect(point(10, 10, 0.05, 1).sustained).toBe(false)
  })
  it('the maximum sustainable throughput is the achieved rate of the highest sustained step', () => {
    expect(
      maxSustainedThroughput([point(5, 5, 0.02), point(10, 9.8, 0.03), point(20, 12, 0.5)])
    ).toBe(9.8)
    expect(maxSustainedThroughput([point(5, 3, 0.5)])).toBeNull()
  })
  it('is a lower bound when no faster step failed: the sweep stopped before the limit', () => {
    const low = point(5, 5, 0.02)
    expect(throughputIsLowerBound([low, point(10, 9.8, 0.03), point(20, 12, 0.5)])).toBe(false)
    expect(throughputIsLowerBound([low, point(10, 9.8, 0.03)])).toBe(true)
    // A slower step that failed (noise) does not bound it from above.
    expect(throughputIsLowerBound([point(5, 3, 0.5), point(10, 9.8, 0.03)])).toBe(true)
    expect(throughputIsLowerBound([point(5, 3, 0.5)])).toBe(false)
  })
  it('bounds: a multiple of the first step’s p50, or a duration', () => {
    expect(parseLatencyBound('5x')).toEqual({ kind: 'relative', factor: 5 })
    expect(parseLatencyBound('250ms')).toEqual({ kind: 'absolute', seconds: 0.25 })
    expect(parseLatencyBound('2s')).toEqual({ kind: 'absolute', seconds: 2 })
    for (const bad of ['', '0x', 'fast', '5', '-1s']) expect(parseLatencyBound(bad)).toBeNull()
    expect(boundSeconds({ kind: 'relative', factor: 5 }, point(5, 5, 0.04))).toBeCloseTo(0.1, 9)
  })
  const auto: SweepPlan = { rates: null, start: 5, maxSteps: 12, resolution: 1.05 }
  it('doubles until a step fails, then bisects until the bracket is within the resolution', () => {
    // A topology that sustains up to 13 req/s.
    const capacity = 13
    const done: SweepPoint[] = []
    for (let r = nextSweepRate(auto, done); r !== null; r = nextSweepRate(auto, done)) {
      done.push(point(r, Math.min(r, capacity), r <= capacity ? 0.02 : 1))
    }
    const offered = done.map(p => p.offered)
    expect(offered.slice(0, 3)).toEqual([5, 10, 20])
    const passed = Math.max(...done.filter(p => p.sustained).map(p => p.offered))
    const failed = Math.min(
      ...done.filter(p => !p.sustained && p.offered > passed).map(p => p.offered)
    )
    expect(failed / passed).toBeLessThanOrEqual(1.05)
    expect(passed).toBeLessThanOrEqual(capacity)
    expect(passed).toBeGreaterThan(capacity / 1.05)
    expect(done.length).toBeLessThanOrEqual(auto.maxSteps)
  })
  it('stops when the first step fails, at a step with errors, and at maxSteps', () => {
    expect(nextSweepRate(auto, [point(5, 1, 1)])).toBeNull()
    expect(nextSweepRate(auto, [point(5, 5, 0.02), point(10, 0, 0, 20)])).toBeNull()
    expect(nextSweepRate({ ...auto, maxSteps: 1 }, [point(5, 5, 0.02)])).toBeNull()
  })
  it('never offers more than 10000 requests/s', () => {
    const fast = { ...auto, start: 5000 }
    expect(nextSweepRate(fast, [point(5000, 5000, 0.02)])).toBe(10000)
    expect(nextSweepRate(fast, [point(5000, 5000, 0.02), point(10000, 10000, 0.02)])).toBeNull()
  })
  it('runs explicit rates in order, past a failed step', () => {
    const plan = { ...auto, rates: [1, 2, 4] }
    expect(nextSweepRate(plan, [])).toBe(1)
    expect(nextSweepRate(plan, [point(1, 1, 0.02), point(2, 1, 1)])).toBe(4)
    expect(nextSweepRate(plan, [point(1, 1, 0.02), point(2, 1, 1), point(4, 1, 1)])).toBeNull()
  })
})

describe('minimal-load rate of the standard cases', () => {
  it('is below one request per blocking sleep per replica', () => {
    const rates = ['1', '2', '3', '4'].map(id => resolveTopology(id).topology.minimalRate)
    // Case 2: one 1 s blocking router; case 4: two blocking replicas.
    expect(rates).toEqual([5, 0.5, 5, 1])
  })
})
