import * as fs from 'node:fs'
import * as path from 'node:path'
import { countersFromStats } from '../src/engine/docker/usage'
import { processTree, processTreeCounters } from '../src/engine/local/usage'
import type { InstanceCounters } from '../src/engine/usage'
import { entriesFromResult } from '../src/history/from-result'
import { HistoryEntrySchema } from '../src/history/schema'
import { RunResultSchema, type RunResult } from '../src/metrics/schema'
import {
  serviceWindow,
  everyRunHas,
  unreadableServices,
  usageSamples,
  windowUsage,
  withUsage
} from '../src/metrics/usage'
import { runBoundaries, withWindows } from '../src/pipeline/suite/usage-window'
import { toBenchmarkAction, toBmf } from '../src/report/export'
import { makeResult } from './fixtures/history/result'
import { tmp } from './helpers/tmp'

const MIB = 1024 * 1024
const at = (
  cpuNs: number,
  mib: number,
  memory: 'peak-since-start' | 'sampled' = 'peak-since-start'
): InstanceCounters => ({
  cpuNs,
  memoryBytes: mib * MIB,
  memory
})

const run: RunResult = {
  index: 1,
  rate: 5,
  warmup: false,
  startedAt: '2026-01-01T00:00:00.000Z',
  clientSeconds: 8,
  requests: 40,
  payloadBytes: 0,
  dataRateMBps: null,
  summaries: {
    latency: { n: 40, mean: 0.01, median: 0.01, p90: 0.01, p99: 0.01, min: 0.01, max: 0.01, std: 0 }
  },
  samples: { latency: Array(40).fill(0.01) }
}

describe('a service over a window', () => {
  test('CPU is the rise of the sum over its instances; a peak is the later end', () => {
    expect(serviceWindow([at(1e9, 10), at(2e9, 20)], [at(1.5e9, 12), at(2.25e9, 21)])).toEqual({
      cpuSeconds: 0.75,
      memoryMiB: 33,
      memory: 'peak-since-start',
      instances: 2
    })
  })

  test('a sampled usage (cgroup v2) is the larger of its two ends, instance by instance', () => {
    const w = serviceWindow(
      [at(0, 30, 'sampled'), at(0, 5, 'sampled')],
      [at(1, 10, 'sampled'), at(1, 8, 'sampled')]
    )
    expect(w).toMatchObject({ memoryMiB: 38, memory: 'sampled' })
  })

  test('an unreadable end, a changed instance set or a counter that went back is no figure', () => {
    const gone = {
      unreadable: 'its container runs on another node, whose daemon this run cannot read'
    }
    expect(serviceWindow([at(0, 1)], [gone])).toEqual(gone)
    expect(serviceWindow([gone], [at(0, 1)])).toEqual(gone)
    expect(serviceWindow([at(0, 1)], [at(1, 1), at(1, 1)])).toEqual({
      unreadable: 'its instances changed during the window'
    })
    expect(serviceWindow([at(5, 1)], [at(4, 1)])).toEqual({
      unreadable: 'its CPU counter went back (an instance restarted)'
    })
  })
})

describe('per request', () => {
  const usage = windowUsage(
    { a: [at(1e9, 10)], b: [at(0, 50)] },
    { a: [at(1.02e9, 11)], b: [at(0.06e9, 52)] },
    40,
    2
  )

  test('cpu:<service> is CPU seconds over the requests answered; cpu:total their sum; mem:<service> MiB', () => {
    const s = usageSamples(usage)
    expect(Object.keys(s)).toEqual(['cpu:a', 'cpu:b', 'cpu:total', 'mem:a', 'mem:b'])
    expect(s['cpu:a'][0]).toBeCloseTo(0.02 / 40, 12)
    expect(s['cpu:b'][0]).toBeCloseTo(0.06 / 40, 12)
    expect(s['cpu:total'][0]).toBeCloseTo(0.08 / 40, 12)
    expect(s['mem:a']).toEqual([11])
    expect(s['mem:b']).toEqual([52])
  })

  test('an unreadable service has no figure, and then neither has cpu:total (never a zero)', () => {
    const part = windowUsage(
      { a: [at(0, 1)], b: [at(0, 1)] },
      { a: [at(1e6, 1)], b: [{ unreadable: 'x' }] },
      10,
      1
    )
    expect(Object.keys(usageSamples(part))).toEqual(['cpu:a', 'mem:a'])
    expect(unreadableServices(part)).toEqual([{ service: 'b', reason: 'x' }])
    const late = windowUsage({}, { a: [at(1, 1)] }, 10, 1)
    expect(late.services.a).toEqual({ unreadable: 'it started during the window' })
    expect(usageSamples(late)).toEqual({})
  })

  test('a run keeps its window and its one value per metric; results without it still validate', () => {
    const r = withUsage(run, usage)
    expect(RunResultSchema.parse(r)).toEqual(r)
    expect(RunResultSchema.parse(run)).toEqual(run)
    expect(r.summaries['cpu:total']).toMatchObject({ n: 1, median: r.samples['cpu:total'][0] })
    expect(r.samples.latency).toBe(run.samples.latency)
  })

  test('a usage metric some measured run lacks is not published; other metrics are untouched', () => {
    const read = withUsage(run, usage)
    const partial = withUsage(run, {
      ...usage,
      services: { a: usage.services.a, b: { unreadable: 'x' } }
    })
    const warm = { ...run, warmup: true }
    const metrics = Object.keys(read.summaries)
    expect(everyRunHas(metrics, [warm, read, partial])).toEqual(['latency', 'cpu:a', 'mem:a'])
    expect(everyRunHas(metrics, [warm, read, read])).toEqual(metrics)
  })

  test('the history entry carries the window and the figures', () => {
    const result = makeResult()
    result.cases[0].runs = result.cases[0].runs.map(x => (x.warmup ? x : withUsage(x, usage)))
    const [e] = entriesFromResult(result)
    expect(HistoryEntrySchema.parse(e)).toEqual(e)
    const measured = result.cases[0].runs.filter(x => !x.warmup).length
    expect(e.runs.filter(x => x.usage).length).toBe(measured)
    expect(e.samples!['mem:b']).toEqual(Array(measured).fill(52))
  })
})

describe('windows of a paced stream', () => {
  test('each run opens a quarter period before its first request; the warm-up is in none', () => {
    const parts = [
      { warmup: true, requests: 50 },
      { warmup: false, requests: 20 },
      { warmup: false, requests: 20 }
    ]
    expect(runBoundaries(parts, 5, 1000)).toEqual([
      (1000 + 49.75 / 5) * 1000,
      (1000 + 69.75 / 5) * 1000
    ])
  })

  test('run k spans reading k to k + 1, the last to the end; requests are those it answered', () => {
    const reading = (ms: number, cpuNs: number) => ({ at: ms, snapshot: { s: [at(cpuNs, 1)] } })
    const runs = [run, { ...run, index: 2 }]
    const [a, b] = withWindows(
      runs,
      [reading(0, 0), reading(4000, 4e6)],
      reading(9000, 10e6),
      'latency'
    )
    expect(a.usage).toMatchObject({
      requests: 40,
      seconds: 4,
      services: { s: { cpuSeconds: 0.004 } }
    })
    expect(b.usage).toMatchObject({
      requests: 40,
      seconds: 5,
      services: { s: { cpuSeconds: 0.006 } }
    })
    expect(b.samples['cpu:s'][0]).toBeCloseTo(0.006 / 40, 12)
    expect(withWindows(runs, [], reading(1, 1), 'latency')).toEqual(runs)
  })
})

describe('the Docker stats reader', () => {
  test('cgroup v1: total_usage and max_usage, the peak since the container started', () => {
    const v1 = {
      cpu_stats: { cpu_usage: { total_usage: 123456789 } },
      memory_stats: { usage: 5 * MIB, max_usage: 9 * MIB }
    }
    expect(countersFromStats(v1)).toEqual({
      cpuNs: 123456789,
      memoryBytes: 9 * MIB,
      memory: 'peak-since-start'
    })
  })

  test('cgroup v2 keeps no peak: the usage now, said to be sampled', () => {
    const v2 = { cpu_stats: { cpu_usage: { total_usage: 7 } }, memory_stats: { usage: 3 * MIB } }
    expect(countersFromStats(v2)).toEqual({ cpuNs: 7, memoryBytes: 3 * MIB, memory: 'sampled' })
  })

  test('a stopped container (empty memory stats) or a malformed answer says so', () => {
    expect(
      countersFromStats({ cpu_stats: { cpu_usage: { total_usage: 0 } }, memory_stats: {} })
    ).toEqual({
      unreadable: 'its container is not running'
    })
    expect(countersFromStats({})).toEqual({
      unreadable: 'the daemon gave no CPU counter for its container'
    })
  })
})

describe('the local reader over a process tree', () => {
  /** A /proc with pid 10 (two threads) → child 11 → grandchild 12, and an unrelated 99. */
  function fakeProc(): string {
    const root = tmp()
    const proc = (
      pid: number,
      threads: Record<number, { ns: number; children: number[] }>,
      hwmKb: number
    ) => {
      for (const [tid, t] of Object.entries(threads)) {
        const dir = path.join(root, String(pid), 'task', tid)
        fs.mkdirSync(dir, { recursive: true })
        fs.writeFileSync(path.join(dir, 'schedstat'), `${t.ns} 555 7\n`)
        fs.writeFileSync(path.join(dir, 'children'), t.children.map(c => `${c} `).join(''))
      }
      fs.writeFileSync(
        path.join(root, String(pid), 'status'),
        `Name:\tx\nVmHWM:\t ${hwmKb} kB\nVmRSS:\t 1 kB\n`
      )
    }
    proc(10, { 10: { ns: 1000, children: [] }, 13: { ns: 2000, children: [11] } }, 1024)
    proc(11, { 11: { ns: 300, children: [12] } }, 2048)
    proc(12, { 12: { ns: 40, children: [] } }, 512)
    proc(99, { 99: { ns: 1e9, children: [] } }, 9999)
    return root
  }

  test('CPU sums every thread of the tree, memory every process high-water mark', async () => {
    const root = fakeProc()
    expect(processTree(10, root).sort()).toEqual([10, 11, 12])
    expect(await processTreeCounters(10, root)).toEqual({
      cpuNs: 3340,
      memoryBytes: (1024 + 2048 + 512) * 1024,
      memory: 'process-peak'
    })
    expect(await processTreeCounters(11, root)).toMatchObject({ cpuNs: 340 })
  })

  test('a process that is gone says so', async () => {
    expect(await processTreeCounters(4242, fakeProc())).toEqual({
      unreadable: 'its process is not running'
    })
    expect(await processTreeCounters(undefined)).toEqual({
      unreadable: 'its process is not running'
    })
  })
})

describe('exports of the usage metrics', () => {
  const usage = windowUsage({ s: [at(0, 10)] }, { s: [at(4e6, 12)] }, 40, 1)
  const result = makeResult()
  result.cases[0].runs = result.cases[0].runs.map(x => (x.warmup ? x : withUsage(x, usage)))
  result.cases[0].metrics = [...result.cases[0].metrics, 'cpu:s', 'mem:s']
  result.cases[0].best = { ...result.cases[0].best, 'cpu:s': 1e-4, 'mem:s': 12 }

  test('Bencher: CPU per request in nanoseconds as cpu-time, peak memory in MiB as memory', () => {
    const bmf = toBmf(result)
    const label = Object.keys(bmf).find(k => k.endsWith('/cpu:s'))!
    expect(bmf[label]).toEqual({ 'cpu-time': { value: 1e5, lower_value: 1e5, upper_value: 1e5 } })
    expect(bmf[label.replace('cpu:s', 'mem:s')]).toEqual({
      memory: { value: 12, lower_value: 12, upper_value: 12 }
    })
  })

  test('github-action-benchmark: CPU in ms, memory in MiB', () => {
    const points = toBenchmarkAction(result)
    expect(points.find(p => p.name.endsWith(' cpu:s'))).toMatchObject({ unit: 'ms', value: 0.1 })
    expect(points.find(p => p.name.endsWith(' mem:s'))).toMatchObject({ unit: 'MiB', value: 12 })
  })
})
