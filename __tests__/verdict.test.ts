/**
 * The four answers and what they say on constructed intervals, the run's overall answer, the
 * metric a case is judged by, and the group-sequential level with the error rates it keeps under
 * optional stopping (simulated, as docs/regression.md reports them).
 */
import { interimVerdict, pairedMetric } from '../src/judge/paired'
import { lookSchedule, sequentialLevel } from '../src/judge/sequential'
import { compareMetric } from '../src/judge/compare'
import { caseVerdicts, judge, overallVerdict, type Verdict } from '../src/judge/verdict'
import { verdictMetric } from '../src/metrics/verdict-metric'
import { normal, rng } from './fixtures/report/samples'

describe('the four answers', () => {
  const t = 0.025
  test('a change the interval shows, at least the threshold, is a regression or improvement', () => {
    expect(judge(0.05, [0.02, 0.08], t)).toBe('regression')
    expect(judge(-0.05, [-0.08, -0.02], t)).toBe('improvement')
    // Significant, and the estimate at the threshold: called, though the interval reaches below.
    expect(judge(0.03, [0.001, 0.059], t)).toBe('regression')
  })
  test('no change only when the whole interval lies within ± the threshold', () => {
    expect(judge(0.001, [-0.02, 0.022], t)).toBe('no-change')
    expect(judge(0, [-0.025, 0.025], t)).toBe('no-change')
    expect(judge(0.001, [-0.02, 0.026], t)).toBe('inconclusive')
  })
  test('a wide interval is inconclusive, whatever the estimate', () => {
    expect(judge(0.035, [-0.017, 0.09], t)).toBe('inconclusive')
    expect(judge(1.1, [-0.21, 4.58], t)).toBe('inconclusive')
    expect(judge(-0.001, [-0.14, 0.14], t)).toBe('inconclusive')
  })
  test('a real change smaller than the threshold whose interval reaches past it is inconclusive', () => {
    expect(judge(0.015, [0.005, 0.03], t)).toBe('inconclusive')
  })
  test('without a test the threshold can call a change, never its absence', () => {
    expect(judge(0.2, null, 0.1)).toBe('regression')
    expect(judge(-0.2, null, 0.1)).toBe('improvement')
    expect(judge(0.01, null, 0.1)).toBe('inconclusive')
  })
})

describe('what an inconclusive run could see (history mode: runs a side)', () => {
  // Six runs a side of one value each, log-normal with a 3 % spread, as run medians are.
  const r = rng(7)
  const runs = (n: number, scale = 1) =>
    Array.from({ length: n }, () => [0.02 * scale * Math.exp(0.03 * normal(r))])
  const identical = Array.from({ length: 400 }, () => compareMetric('path', runs(6), runs(6), 0.02))
  const middle = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]

  test('the detectable change is the one the test finds with 80 % power, not the half-width', () => {
    const stated = middle(identical.map(m => m.detectable ?? NaN))
    const halfWidth = middle(identical.map(m => (m.ci![1] - m.ci![0]) / 2))
    expect(stated).toBeGreaterThan(halfWidth * 1.3)
    // A head that much slower is told from its base (the interval above zero) in about 80 % of
    // runs; the stated figure comes from estimated spreads, which run a little low.
    const found = Array.from({ length: 1000 }, () =>
      compareMetric('path', runs(6), runs(6, 1 + stated), 0.02)
    ).filter(m => m.ci![0] > 0).length
    expect(found / 1000).toBeGreaterThan(0.72)
    expect(found / 1000).toBeLessThan(0.88)
  })

  test('the runs a side it names show no change at least 80 % of the time', () => {
    const needed = middle(identical.map(m => m.needed ?? NaN))
    expect(needed).toBeGreaterThan(6)
    const shown = Array.from({ length: 300 }, () =>
      compareMetric('path', runs(needed), runs(needed), 0.02)
    ).filter(m => m.verdict === 'no-change').length
    expect(shown / 300).toBeGreaterThan(0.8)
  })

  test('an exact difference (no spread) finds every change, and needs no more runs', () => {
    const m = compareMetric('path', [[1], [1]], [[1.1], [1.1]], 0.02)
    expect(m.detectable).toBe(0)
    expect(m.needed).toBeNull()
  })
})

describe('the run’s answer', () => {
  const c = (v: Verdict) => ({ case: '1', profile: 'minimal@5', metric: 'path', verdict: v })
  test('the worst case decides: regression, then inconclusive, improvement, no change', () => {
    expect(overallVerdict([c('no-change'), c('inconclusive'), c('improvement')])).toBe(
      'inconclusive'
    )
    expect(overallVerdict([c('inconclusive'), c('regression')])).toBe('regression')
    expect(overallVerdict([c('no-change'), c('improvement')])).toBe('improvement')
    expect(overallVerdict([c('no-change')])).toBe('no-change')
    expect(overallVerdict([])).toBe('none')
  })
  test('each case answers by its verdict metric only', () => {
    const cases = [
      {
        caseId: '1',
        profile: 'minimal@5',
        metrics: [
          { metric: 'latency', gating: false, verdict: 'regression' as const },
          { metric: 'path', gating: true, verdict: 'no-change' as const }
        ]
      }
    ]
    expect(caseVerdicts(cases)).toEqual([c('no-change')])
  })
})

describe('the metric a case is judged by', () => {
  const gnes = ['latency', 'latency:sent', 'c:lag', 'c->f:send', 'path', 'r1:proc']
  test('GNES at minimal or paced load: path, which leaves the gRPC transfer out', () => {
    const minimal = { kind: 'minimal' as const, rate: 5 }
    expect(verdictMetric({ headline: 'latency', metrics: gnes, profile: minimal })).toBe('path')
    const paced = { kind: 'paced' as const, rate: 5 }
    expect(verdictMetric({ headline: 'latency', metrics: gnes, profile: paced })).toBe('path')
  })
  test('a burst by its roundtrip, generic services by their latency', () => {
    const burst = ['roundtrip', 'f:send', 'f->r1:send']
    expect(
      verdictMetric({ headline: 'roundtrip', metrics: burst, profile: { kind: 'burst' } })
    ).toBe('roundtrip')
    const http = ['latency', 'latency:sent', 'hop:relay1']
    expect(
      verdictMetric({ headline: 'latency', metrics: http, profile: { kind: 'minimal', rate: 5 } })
    ).toBe('latency')
  })
})

describe('"no change" from its own interval', () => {
  test('a paired run reads equivalence from the interval it is given for it', () => {
    // The interval that calls changes reaches past ±2.5 %; the equivalence one does not.
    expect(judge(0.001, [-0.03, 0.032], 0.025)).toBe('inconclusive')
    expect(judge(0.001, [-0.03, 0.032], 0.025, [-0.02, 0.022])).toBe('no-change')
    // A change is still called from the other interval alone.
    expect(judge(0.03, [0.01, 0.05], 0.025, [0.015, 0.045])).toBe('regression')
    expect(judge(0.001, [-0.01, 0.012], 0.025, [-0.03, 0.03])).toBe('inconclusive')
  })
})

describe('the planned looks', () => {
  test('the first look, then about half as many pairs again, up to max-pairs', () => {
    expect(lookSchedule(6, 30)).toEqual([6, 9, 14, 21, 30])
    expect(lookSchedule(6, 6)).toEqual([6])
    expect(lookSchedule(10, 12)).toEqual([10, 12])
  })
  test('refuses a schedule that cannot hold', () => {
    expect(() => lookSchedule(1, 10)).toThrow(/at least 2 pairs/)
    expect(() => lookSchedule(6, 5)).toThrow(/max-pairs \(5\)/)
  })
  test('one look keeps α; more looks take each at a smaller nominal level', () => {
    expect(sequentialLevel([6], 0.05, null)).toBe(0.05)
    // Too few pairs for the outlier rule to set one aside: the plain t-test's α.
    expect(sequentialLevel([4], 0.05)).toBe(0.05)
    const level = sequentialLevel([6, 9, 14, 21, 30], 0.05)
    expect(level).toBeLessThan(0.05)
    // Above Bonferroni's α / 5: the looks share their pairs, so their tests are correlated.
    expect(level).toBeGreaterThan(0.01)
  })
})

/**
 * One paired run as the pipeline runs it: pairs of log ratio N(log(1 + change), sd), judged at
 * each planned look, stopped at the first decisive answer.
 */
function adaptiveRun(
  change: number,
  sd: number,
  looks: number[],
  threshold: number,
  next: () => number,
  level?: number
): { verdict: Verdict; pairs: number } {
  const diffs: number[] = []
  for (const [k, n] of looks.entries()) {
    while (diffs.length < n) diffs.push(Math.log(1 + change) + sd * normal(next))
    const base = diffs.map(() => [1])
    const head = diffs.map(d => [Math.exp(d)])
    const m =
      level === undefined
        ? interimVerdict('path', base, head, looks, { threshold })
        : pairedMetric('path', base, head, threshold, {
            gating: true,
            levels: { test: level, equivalence: 2 * level }
          })
    if (m.verdict !== 'inconclusive' || k === looks.length - 1) {
      return { verdict: m.verdict, pairs: n }
    }
  }
  throw new Error('unreachable')
}

describe('error rates under optional stopping (2000 simulated runs each)', () => {
  const looks = lookSchedule(6, 30)
  const trials = 2000
  const sd = 0.03
  const count = (change: number, seed: number, level?: number) => {
    const next = rng(seed)
    const out: Record<Verdict, number> = {
      regression: 0,
      improvement: 0,
      'no-change': 0,
      inconclusive: 0
    }
    for (let i = 0; i < trials; i++)
      out[adaptiveRun(change, sd, looks, 0.025, next, level).verdict]++
    return out
  }

  test('identical sides: a change is called in at most 5 % of runs', () => {
    const n = count(0, 11)
    expect((n.regression + n.improvement) / trials).toBeLessThanOrEqual(0.05)
    // And most runs show equivalence: a ±3 % pair spread reaches ±2.5 % within 30 pairs.
    expect(n['no-change'] / trials).toBeGreaterThan(0.5)
  })

  test('a change exactly at the threshold: "no change" is said in at most 5 % of runs', () => {
    const n = count(0.025, 12)
    expect(n['no-change'] / trials).toBeLessThanOrEqual(0.05)
  })

  test('looking as often at the plain 95 % level says "no change" too often', () => {
    const n = count(0.025, 13, 0.05)
    expect(n['no-change'] / trials).toBeGreaterThan(0.05)
  })

  test('a 5 % slowdown is a regression in nearly every run, most of them early', () => {
    const next = rng(14)
    const runs = Array.from({ length: 500 }, () => adaptiveRun(0.05, sd, looks, 0.025, next))
    expect(runs.filter(r => r.verdict === 'regression').length / runs.length).toBeGreaterThan(0.95)
    expect(runs.filter(r => r.pairs <= 9).length / runs.length).toBeGreaterThan(0.5)
  })
})

describe('a stalled pair under optional stopping (500 simulated runs each)', () => {
  const looks = lookSchedule(6, 30)
  /** Runs whose third pair's ratio a stall multiplied by `stall`: their answers, counted. */
  function answers(change: number, stall: number, seed: number): Record<Verdict, number> {
    const next = rng(seed)
    const out: Record<Verdict, number> = {
      regression: 0,
      improvement: 0,
      'no-change': 0,
      inconclusive: 0
    }
    for (let run = 0; run < 500; run++) {
      const diffs = Array.from(
        { length: 30 },
        (_, i) => Math.log(1 + change) + 0.03 * normal(next) + (i === 2 ? Math.log(stall) : 0)
      )
      for (const [k, n] of looks.entries()) {
        const d = diffs.slice(0, n)
        const m = interimVerdict(
          'path',
          d.map(() => [1]),
          d.map(x => [Math.exp(x)]),
          looks,
          { threshold: 0.025 }
        )
        if (m.verdict !== 'inconclusive' || k === looks.length - 1) {
          out[m.verdict]++
          break
        }
      }
    }
    return out
  }

  test('one pair 3× off: a real +4 % is still a regression in nearly every run', () => {
    expect(answers(0.04, 3, 21).regression / 500).toBeGreaterThan(0.95)
  })

  test('one pair 1.3× off: identical copies keep their level and mostly show no change', () => {
    const n = answers(0, 1.3, 22)
    expect((n.regression + n.improvement) / 500).toBeLessThanOrEqual(0.05)
    expect(n['no-change'] / 500).toBeGreaterThan(0.5)
  })
})
