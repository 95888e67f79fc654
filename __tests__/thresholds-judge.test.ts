import { ThresholdsSchema } from '../src/config/thresholds'
import { evaluateThreshold, evaluateThresholds } from '../src/judge/thresholds'
import type { RunResult, RunUsage } from '../src/metrics/schema'
import { withUsage } from '../src/metrics/usage'
import { brokenText, thresholdsMarkdown } from '../src/report/threshold-text'
import type { CaseResult, Result } from '../src/result/schema'

const ms = (xs: number[]): number[] => xs.map(x => x / 1000)

/** A paced case: a warm-up run far slower than its two measured runs, which hold 1–10 ms. */
function pacedCase(id = 'chain'): CaseResult {
  const run = (warmup: boolean, latency: number[]) => ({ warmup, samples: { latency } })
  return {
    id,
    profile: { kind: 'minimal', rate: 5 },
    runs: [
      run(true, ms([900, 950])),
      run(false, ms([1, 2, 3, 4, 5])),
      run(false, ms([6, 7, 8, 9, 10]))
    ],
    sweep: null
  } as unknown as CaseResult
}

function sweepCase(maxThroughput: number | null): CaseResult {
  const point = (requests: number, errors: number) => ({ requests, errors })
  return {
    id: 'chain',
    profile: { kind: 'sweep' },
    runs: [],
    sweep: { points: [point(100, 0), point(200, 0), point(700, 7)], maxThroughput }
  } as unknown as CaseResult
}

const one = (metric: string, source: string) => ThresholdsSchema.parse({ [metric]: [source] })[0]

type Service = { cpuSeconds: number; memoryMiB: number } | { unreadable: string }
const read = (cpuSeconds: number, memoryMiB: number): Service => ({ cpuSeconds, memoryMiB })

/**
 * A paced case whose measured runs read the services' usage: each run `[requests, services]`, its
 * figures put among its samples by the metrics stage as a real run's are, after a warm-up that has
 * no window (usage is never read there).
 */
function usageCase(...measured: [number, Record<string, Service>][]): CaseResult {
  const usage = (requests: number, services: Record<string, Service>): RunUsage => ({
    requests,
    seconds: requests / 5,
    services: Object.fromEntries(
      Object.entries(services).map(([name, s]) => [
        name,
        'unreadable' in s ? s : { ...s, memory: 'peak-since-start' as const, instances: 1 }
      ])
    )
  })
  const run = (index: number) =>
    ({ index, warmup: index === 0, samples: {}, summaries: {} }) as unknown as RunResult
  return {
    id: 'chain',
    profile: { kind: 'minimal', rate: 5 },
    runs: [
      run(0),
      ...measured.map(([requests, services], i) => withUsage(run(i + 1), usage(requests, services)))
    ],
    sweep: null
  } as unknown as CaseResult
}

describe('thresholds judged on a result', () => {
  it.each([
    ['med<6ms', 5.5e-3, 'pass'],
    ['avg<=5.5ms', 5.5e-3, 'pass'],
    ['min>1ms', 1e-3, 'fail'],
    ['max<10ms', 10e-3, 'fail'],
    ['p(90)<9ms', 9.1e-3, 'fail'],
    ['p(100)==10ms', 10e-3, 'pass'],
    ['med!=5.5ms', 5.5e-3, 'fail']
  ])('latency %s over the measured runs (warm-up excluded): %d s, %s', (source, figure, status) => {
    const o = evaluateThreshold(pacedCase(), one('latency', source))
    expect(o.figure).toBeCloseTo(figure, 12)
    expect(o.status).toBe(status)
  })
  it('a sweep: throughput its maximum sustainable rate (none sustained: 0), errors over every step', () => {
    expect(evaluateThreshold(sweepCase(480), one('throughput', 'value>=500'))).toMatchObject({
      figure: 480,
      status: 'fail'
    })
    expect(evaluateThreshold(sweepCase(null), one('throughput', 'value>0')).figure).toBe(0)
    expect(evaluateThreshold(sweepCase(480), one('errors', 'rate<0.001'))).toMatchObject({
      figure: 0.007,
      status: 'fail'
    })
    expect(evaluateThreshold(sweepCase(480), one('errors', 'count<=7')).status).toBe('pass')
  })
  it('a figure the profile does not publish is absent, not broken', () => {
    expect(evaluateThreshold(sweepCase(480), one('latency', 'p(99)<1ms')).status).toBe('absent')
    expect(evaluateThreshold(pacedCase(), one('throughput', 'value>1')).status).toBe('absent')
    expect(evaluateThreshold(pacedCase(), one('path', 'med<1ms')).status).toBe('absent')
  })
  describe('CPU per request and peak memory, one figure per measured run', () => {
    // Two runs: 100 requests on 1.0 + 0.5 CPU-s, then 300 on 1.2 + 0.3 CPU-s.
    const c = usageCase(
      [100, { web: read(1.0, 40), db: read(0.5, 300) }],
      [300, { web: read(1.2, 42), db: read(0.3, 310) }]
    )
    it.each([
      // value: every measured run's CPU seconds over every request they answered.
      ['cpu:web', 'value<6ms', (1.0 + 1.2) / 400, 'pass'],
      ['cpu:total', 'value<8ms', (1.5 + 1.5) / 400, 'pass'],
      // The other aggregations over the runs' figures, each run alike: 10 ms and 4 ms for web.
      ['cpu:web', 'avg<7ms', 0.007, 'fail'],
      ['cpu:web', 'max<=10ms', 0.01, 'pass'],
      ['cpu:web', 'min>4ms', 0.004, 'fail'],
      ['cpu:total', 'med<10ms', (0.015 + 0.005) / 2, 'pass'],
      ['cpu:db', 'p(100)==5ms', 0.005, 'pass'],
      // value: the largest peak of the measured runs, in MiB.
      ['mem:db', 'value<300MiB', 310, 'fail'],
      ['mem:db', 'value<1GiB', 310, 'pass'],
      ['mem:web', 'avg<41.5', 41, 'pass'],
      ['mem:web', 'min>=40000KiB', 40, 'pass']
    ])('%s %s: %d', (metric, source, figure, status) => {
      const o = evaluateThreshold(c, one(metric, source))
      expect(o.figure).toBeCloseTo(figure, 12)
      expect(o.status).toBe(status)
    })
    it('a service whose counters a run could not read is absent with the reason, never 0, and cpu:total with it', () => {
      const remote = usageCase(
        [100, { web: read(1.0, 40), db: read(0.5, 300) }],
        [100, { web: read(1.0, 40), db: { unreadable: 'its container runs on another node' } }]
      )
      for (const metric of ['cpu:db', 'mem:db', 'cpu:total']) {
        expect(evaluateThreshold(remote, one(metric, 'value<1'))).toEqual({
          threshold: one(metric, 'value<1'),
          figure: null,
          status: 'absent',
          absent: 'the counters of db were not read in run 2: its container runs on another node'
        })
      }
      expect(evaluateThreshold(remote, one('cpu:web', 'value<1')).status).toBe('fail')
    })
    it('a service the case lacks, and a profile without windows, are absent with their reason', () => {
      expect(evaluateThreshold(c, one('cpu:Router1', 'value<1'))).toMatchObject({
        status: 'absent',
        absent: 'the case has no service Router1'
      })
      // `constructor` is no service, though every object has one.
      expect(evaluateThreshold(c, one('mem:constructor', 'value<1')).status).toBe('absent')
      expect(evaluateThreshold(pacedCase(), one('cpu:total', 'value<1'))).toMatchObject({
        status: 'absent',
        absent: 'the profile measures no CPU or memory per run'
      })
      expect(evaluateThreshold(sweepCase(480), one('mem:web', 'value<1')).status).toBe('absent')
    })
    it('in words: CPU as a time, memory in MiB, each absent reason with where it applies', () => {
      const remote = usageCase([
        100,
        { web: read(1.0, 40), db: { unreadable: 'on another `node` | x' } }
      ])
      const ts = ThresholdsSchema.parse({
        'cpu:web': 'value<2ms',
        'mem:web': 'value<10000MiB',
        'cpu:db': 'value<1',
        'cpu:total': 'value<1'
      })
      const text = thresholdsMarkdown(
        evaluateThresholds({ cases: [remote] } as unknown as Result, () => ts),
        null
      )
      expect(text).toContain('❌ 1 of 2 thresholds broken on the head.')
      expect(text).toContain('| `cpu:web` | `value<2ms` | 10.00 ms ❌ |')
      expect(text).toContain('| `mem:web` | `value<10000MiB` | 40.0 MiB ✅ |')
      expect(text).toContain('| `cpu:total` | `value<1` | — ➖ |')
      // The platform's text is escaped: no code span or table cell it could open.
      const note = text.split('\n').filter(l => l.startsWith('➖'))
      expect(note).toHaveLength(1)
      expect(note[0]).toMatch(
        /^➖ the counters of db were not read in run 1: on another &#96;node&#96; \\\| x: `chain` \(minimal@5\) `cpu:db`, `chain` \(minimal@5\) `cpu:total`\.$/
      )
    })
  })
  it('each case its own thresholds; broken when any breaks', () => {
    const result = { cases: [pacedCase('a'), pacedCase('b')] } as unknown as Result
    const ts = ThresholdsSchema.parse({ latency: ['p(99)<1ms'] })
    const report = evaluateThresholds(result, id => (id === 'a' ? ts : []))
    expect(report.cases.map(c => c.case)).toEqual(['a'])
    expect(report.broken).toBe(true)
    expect(evaluateThresholds(result, () => []).broken).toBe(false)
  })
})

describe('thresholds in words', () => {
  const result = { cases: [pacedCase()] } as unknown as Result
  const ts = ThresholdsSchema.parse({ latency: ['p(99)<1ms', 'med<50ms'], throughput: 'value>1' })
  const head = evaluateThresholds(result, () => ts)
  it('each threshold with its figure and mark, the absent ones said', () => {
    const text = thresholdsMarkdown(head, null)
    expect(text).toContain('❌ 1 of 2 thresholds broken on the head.')
    expect(text).toContain('| `chain` (minimal@5) | `latency` | `p(99)<1ms` | 9.91 ms ❌ |')
    expect(text).toContain('| `chain` (minimal@5) | `latency` | `med<50ms` | 5.50 ms ✅ |')
    expect(text).toContain('| `throughput` | `value>1` | — ➖ |')
    expect(text).toContain(
      '➖ the profile publishes no such figure: `chain` (minimal@5) `throughput`.'
    )
  })
  it('in paired mode the base beside the head', () => {
    const text = thresholdsMarkdown(head, head)
    expect(text).toContain('| case | metric | threshold | head | base |')
    expect(text).toContain('| `p(99)<1ms` | 9.91 ms ❌ | 9.91 ms ❌ |')
  })
  it('all held, and no section without thresholds', () => {
    const held = evaluateThresholds(result, () => ts.slice(1))
    expect(thresholdsMarkdown(held, null)).toContain('✅ the one threshold holds on the head.')
    expect(
      thresholdsMarkdown(
        evaluateThresholds(result, () => []),
        null
      )
    ).toBe('')
  })
  it('a hop name or expression that could break its code span is refused before it is shown', () => {
    expect(ThresholdsSchema.safeParse({ 'hop:`x|<b>': ['med<1ms'] }).success).toBe(false)
    expect(ThresholdsSchema.safeParse({ latency: ['med<1ms`|'] }).success).toBe(false)
    const [t] = ThresholdsSchema.parse({ latency: ['p(99)\n<\t1 ms'] })
    expect(t.source).toBe('p(99) < 1 ms')
  })
  it('the failure names each broken threshold with its figure', () => {
    expect(brokenText(head)).toBe(
      '1 threshold broken (fail-on-threshold is on): case chain (minimal@5): latency p(99)<1ms, 9.91 ms'
    )
  })
})
