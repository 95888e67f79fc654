import { ThresholdsSchema } from '../src/config/thresholds'
import { evaluateThreshold, evaluateThresholds } from '../src/judge/thresholds'
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
    expect(text).toContain('does not publish that figure')
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
