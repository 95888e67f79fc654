/**
 * Integration: every load profile against real GNES 0.0.47, on the local engine and on Docker,
 * with small documents and rates so the suite stays short; and a real stall (the Frontend
 * stopped for a second) that only the schedule-based latency shows.
 */
import { randomUUID } from 'node:crypto'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { parseInputs, type RawInputs } from '../src/config/inputs'
import type { Log } from '../src/log'
import type { CaseResult, Result } from '../src/result/schema'
import { runSuite } from '../src/pipeline'
import { daemonSuite, describeDocker, labelled } from './helpers/docker'
import { pidsWithEnv, sleep } from './helpers/processes'
import { quiet } from './helpers/log'
import { tmp } from './helpers/tmp'

const SMALL: Partial<RawInputs> = {
  docs: '20',
  'doc-bytes': '1000',
  runs: '2',
  requests: '6',
  'warmup-requests': '2'
}

const byProfile = (result: Result, caseId: string, kind: string): CaseResult => {
  const found = result.cases.find(c => c.id === caseId && c.profile.kind === kind)
  if (!found) throw new Error(`no ${kind} result for case ${caseId}`)
  return found
}

/** What every paced result must show: schedule kept, every hop bounded, the drain left out. */
function expectPaced(c: CaseResult, rate: number): void {
  expect(c.headline).toBe('latency')
  expect(c.metrics).not.toContain('roundtrip')
  expect(c.metrics).not.toContain('r2->f:send')
  // One stream: its first requests warm up, then the runs follow on the same schedule.
  expect(c.runs.map(r => [r.warmup, r.rate, r.requests])).toEqual([
    [true, rate, 2],
    [false, rate, 6],
    [false, rate, 6]
  ])
  for (const run of c.runs.filter(r => !r.warmup)) {
    // Open loop on schedule: the client never fell behind at these rates.
    expect(run.summaries['c:lag'].max).toBeLessThan(0.05)
    // Frontend arrivals keep the schedule's spacing.
    expect(run.summaries['f:send'].median).toBeGreaterThan(0.6 / rate)
    expect(run.summaries['f:send'].median).toBeLessThan(1.4 / rate)
    run.samples.latency.forEach((v, j) => expect(v).toBeGreaterThanOrEqual(run.samples.path[j]))
  }
  // The published figures are the best run's medians, every metric from that one run.
  const measured = c.runs.filter(r => !r.warmup)
  const best = measured.find(r => r.summaries.latency.median === c.best.latency)!
  expect(c.best.latency).toBe(Math.min(...measured.map(r => r.summaries.latency.median)))
  expect(c.best.path).toBe(best.summaries.path.median)
  expect(c.dataRateMBps).toBeNull()
}

describe('load profiles on the local engine (real GNES 0.0.47)', () => {
  it('case 1 under minimal, paced, burst and an explicit sweep; case 2 at minimal load does not queue', async () => {
    const inputs = parseInputs({
      ...SMALL,
      cases: '1',
      engine: 'local',
      profiles: 'sweep,minimal,paced,burst',
      rate: '10',
      'sweep-rates': '4,8',
      'sweep-step-seconds': '1',
      'out-dir': tmp()
    })
    // Case 2 would spend minutes in a sweep at its 1 s router: run it under minimal load only.
    const case2 = parseInputs({
      ...SMALL,
      cases: '2',
      engine: 'local',
      'out-dir': tmp(),
      profiles: 'minimal'
    })
    const [one, two] = await Promise.all([
      runSuite(inputs, { log: quiet }),
      runSuite(case2, { log: quiet })
    ])

    // The sweep runs last whatever the order asked for; every other profile keeps its place.
    expect(one.cases.map(c => c.profile.kind)).toEqual(['minimal', 'paced', 'burst', 'sweep'])
    expectPaced(byProfile(one, '1', 'minimal'), 5)
    expectPaced(byProfile(one, '1', 'paced'), 10)

    const burst = byProfile(one, '1', 'burst')
    expect(burst.headline).toBe('roundtrip')
    expect(burst.metrics).toContain('r2->f:send')
    expect(burst.runs.map(r => [r.warmup, r.rate, r.requests])).toEqual([
      [false, null, 2],
      [false, null, 2]
    ])
    expect(burst.dataRateMBps).toBeGreaterThan(0)

    const sweep = byProfile(one, '1', 'sweep')
    expect(sweep.profile).toEqual({ kind: 'sweep', auto: false, rates: [4, 8] })
    expect(sweep.runs).toEqual([])
    const points = sweep.sweep!.points
    expect(points.map(p => [p.offered, p.requests, p.errors])).toEqual([
      [4, 20, 0],
      [8, 20, 0]
    ])
    for (const p of points) {
      expect(p.latency.n).toBe(20)
      expect(p.latency.p99).toBeGreaterThanOrEqual(p.latency.p50)
      expect(p.histogram.startsWith('HISTF')).toBe(true)
      expect(p.achieved).toBeGreaterThan(p.offered * 0.8)
      expect(p.achieved).toBeLessThan(p.offered * 1.2)
    }
    const sustained = points.filter(p => p.sustained).sort((a, b) => b.offered - a.offered)
    expect(sweep.sweep!.maxThroughput).toBe(sustained[0]?.achieved ?? null)

    // Case 2 at 0.5 req/s: each request meets an idle 1 s router, so no latency grows along a run.
    const minimal2 = byProfile(two, '2', 'minimal')
    expectPaced(minimal2, 0.5)
    for (const run of minimal2.runs.filter(r => !r.warmup)) {
      for (const v of run.samples['r2:proc']) expect(v).toBeGreaterThan(0.99)
      for (const v of run.samples.latency) expect(v).toBeLessThan(1.5)
    }
  }, 240_000)

  it('a real stall: with the Frontend stopped for 5 s, latency from the schedule keeps the delay of requests the client could not send', async () => {
    const suiteId = randomUUID()
    const inputs = parseInputs({
      ...SMALL,
      cases: '1',
      engine: 'local',
      profiles: 'paced',
      rate: '2',
      requests: '24',
      runs: '1',
      'warmup-requests': '0',
      // Requests of 10 MB exceed gRPC's flow-control window: a stopped Frontend blocks the sender.
      'doc-bytes': '1000000',
      'out-dir': tmp()
    })
    let stalled = false
    const dump = path.join(inputs['out-dir'], 'logs', 'case-1', 'route-dump.jsonl')
    const answered = () =>
      fs.existsSync(dump) ? fs.readFileSync(dump, 'utf8').split('\n').length - 1 : 0
    const log: Log = {
      ...quiet,
      info: m => {
        if (!m.startsWith('services ready')) return
        void (async () => {
          // Stop the Frontend once the stream is under way (three answers in).
          while (answered() < 3) await sleep(50)
          const [frontend] = pidsWithEnv('GNES_BENCH_SUITE', suiteId).filter(pid =>
            fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('frontend')
          )
          process.kill(frontend, 'SIGSTOP')
          await sleep(5000)
          process.kill(frontend, 'SIGCONT')
          stalled = true
        })()
      }
    }
    const result = await runSuite(inputs, { log, suiteId })
    expect(stalled).toBe(true)
    const run = byProfile(result, '1', 'paced').runs[0]
    // Requests due during the stall waited in the client (gRPC could not take them): measured
    // from their actual send they look fast; from the schedule each one carries its wait.
    const lag = run.samples['c:lag']
    // A failure shows the samples: [latency, latency:sent, c:lag] per request.
    const table = lag.map((l, j) => [run.samples.latency[j], run.samples['latency:sent'][j], l])
    expect(lag.filter(v => v > 0.2).length >= 2 ? 'waited' : table).toBe('waited')
    const hidden = run.samples.latency.reduce(
      (sum, v, j) => sum + v - run.samples['latency:sent'][j],
      0
    )
    expect(hidden).toBeGreaterThan(1)
  }, 120_000)
})

describeDocker('load profiles on the Docker engine', () => {
  it('case 1 under minimal load and a one-step sweep, the client in a container', async () => {
    const runId = randomUUID()
    const result = await daemonSuite(
      'docker',
      { ...SMALL, cases: '1', profiles: 'minimal,sweep', 'sweep-rates': '4' },
      runId
    )
    expect(result.meta.engine).toBe('docker')
    expectPaced(byProfile(result, '1', 'minimal'), 5)
    const [step] = byProfile(result, '1', 'sweep').sweep!.points
    expect(step).toMatchObject({ offered: 4, requests: 20, errors: 0 })
    expect(step.latency.n).toBe(20)
    expect(await labelled(runId)).toEqual({ containers: 0, networks: 0 })
  }, 240_000)
})
