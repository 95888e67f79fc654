/**
 * Paired mode's pure parts on constructed samples: the ABBA order, the per-block load, the paired
 * test (against closed-form values), drift inside the job, and the comparison of two results.
 */
import { comparePaired, interimVerdict, pairedMetric, SPREAD_CONFIDENCE } from '../src/judge/paired'
import { sequentialLevel, sequentialLevels } from '../src/judge/sequential'
import { abbaOrder, orderLetters, orderText, type Side } from '../src/client/interleave'
import { mean } from '../src/stats/sample'
import { blockLoad } from '../src/pipeline/suite/paired-case'
import { makeResult, makeRuns, normal, rng } from './fixtures/report/samples'

describe('the ABBA order', () => {
  test('pairs alternate which side goes first, each pair in adjacent blocks', () => {
    expect(orderLetters(abbaOrder(4))).toBe('ABBAABBA')
    expect(orderLetters(abbaOrder(3))).toBe('ABBAAB')
    const order = abbaOrder(6)
    for (let pair = 0; pair < 6; pair++) {
      const at = order.flatMap((b, k) => (b.pair === pair ? [k] : []))
      expect(at).toEqual([2 * pair, 2 * pair + 1])
      expect(new Set(at.map(k => order[k].side))).toEqual(new Set(['base', 'head']))
    }
  })

  test('interleaved by requests, the pairs keep the same order: the side ahead alternates', () => {
    expect(orderText(abbaOrder(3), 'requests')).toBe(
      'pairs of runs, both sides at once with their requests alternating, the side half a period ahead alternating pair by pair (`ABBAAB…`)'
    )
    expect(orderText(abbaOrder(3), 'blocks')).toBe('pairs of runs in the order `ABBAAB…`')
  })

  test('with an even number of pairs both sides sit on average at the same time', () => {
    for (const pairs of [2, 4, 10]) {
      const mean = (side: Side) => {
        const at = abbaOrder(pairs).flatMap((b, k) => (b.side === side ? [k] : []))
        return at.reduce((a, k) => a + k, 0) / at.length
      }
      expect(mean('base')).toBe(mean('head'))
    }
  })

  test('refuses a count that is no whole number of pairs', () => {
    expect(() => abbaOrder(0)).toThrow(/at least 1 \(got 0\)/)
    expect(() => abbaOrder(2.5)).toThrow(RangeError)
  })
})

describe('the load of one block', () => {
  const load = {
    docs: 50,
    batchSize: 10,
    docBytes: 1000,
    runs: 6,
    requests: 20,
    warmupRequests: 10
  }
  test('the first block on a deployment takes the whole warm-up, later paced ones a short lead-in', () => {
    const minimal = { kind: 'minimal' as const, rate: 5 }
    expect(blockLoad(load, minimal, true)).toEqual({ ...load, runs: 1 })
    expect(blockLoad(load, minimal, false)).toEqual({ ...load, runs: 1, warmupRequests: 5 })
    expect(blockLoad(load, { kind: 'minimal', rate: 0.5 }, false).warmupRequests).toBe(1)
  })
  test('a later burst block needs none, and no warm-up asked for means none at all', () => {
    expect(blockLoad(load, { kind: 'burst' }, false).warmupRequests).toBe(0)
    const none = { ...load, warmupRequests: 0 }
    expect(blockLoad(none, { kind: 'minimal', rate: 5 }, false).warmupRequests).toBe(0)
  })
})

/** Runs whose median is exactly `m` (three requests around it). */
const runAt = (m: number): number[] => [m * 0.9, m, m * 1.2]

describe('the paired test', () => {
  test('matches the closed form of Student’s t with 2 degrees of freedom', () => {
    // Log ratios 0.04, 0.05, 0.06: mean 0.05, s = 0.01, t = 5√3, two-sided p = 1 − t/√(2 + t²).
    const base = [0.1, 0.2, 0.3].map(runAt)
    const head = [0.04, 0.05, 0.06].map((d, i) => runAt([0.1, 0.2, 0.3][i] * Math.exp(d)))
    const m = pairedMetric('latency', base, head, 0.025, { gating: true })
    const t = 5 * Math.sqrt(3)
    expect(m.p).toBeCloseTo(1 - t / Math.sqrt(2 + t * t), 6)
    // Half-width: t(0.975, 2) = 4.302653 times s/√3.
    const half = (4.302653 * 0.01) / Math.sqrt(3)
    expect(m.ci[0]).toBeCloseTo(Math.exp(0.05 - half) - 1, 5)
    expect(m.ci[1]).toBeCloseTo(Math.exp(0.05 + half) - 1, 5)
    expect(m.change).toBeCloseTo(Math.exp(0.05) - 1, 10)
    expect(m.ratios.map(r => Math.log(r))).toEqual(
      [0.04, 0.05, 0.06].map(x => expect.closeTo(x, 10))
    )
    expect(m.verdict).toBe('regression')
  })

  test('a difference without spread is exact', () => {
    const base = [0.1, 0.2].map(runAt)
    expect(pairedMetric('x', base, base, 0.025)).toMatchObject({ change: 0, p: 1, ci: [0, 0] })
    const slower = pairedMetric('x', base, [0.105, 0.21].map(runAt), 0.025)
    expect(slower.p).toBeLessThan(1e-6)
    expect(slower.change).toBeCloseTo(0.05, 10)
    expect(slower.verdict).toBe('regression')
  })

  test('needs two pairs, and as many runs on each side', () => {
    expect(() => pairedMetric('x', [runAt(1)], [runAt(1)], 0.1)).toThrow(/at least 2 pairs/)
    expect(() => pairedMetric('x', [runAt(1), runAt(1)], [runAt(1)], 0.1)).toThrow(RangeError)
  })

  test('a significant change below the threshold is no regression', () => {
    const base = [0.1, 0.2, 0.3, 0.4].map(runAt)
    const head = base.map((r, i) => r.map(x => x * (1.01 + 0.001 * (i % 2))))
    const m = pairedMetric('x', base, head, 0.025)
    expect(m.p).toBeLessThan(0.05)
    expect(m.verdict).toBe('no-change')
  })
})

describe('a pair unlike the others', () => {
  // Nine pairs of a real +4 % change, ±2 % from pair to pair (docs/regression.md's spreads).
  const spread = [0.01, -0.02, 0.015, 0, -0.01, 0.02, -0.015, 0.005, -0.005]
  const base = spread.map((_, i) => runAt(0.02 + 0.001 * i))
  const headOf = (stall: number) =>
    spread.map((e, i) => runAt((0.02 + 0.001 * i) * 1.04 * Math.exp(e) * (i === 2 ? stall : 1)))

  test('a pair whose median a stall moved 3× is set aside, and the +4 % is still a regression', () => {
    const m = pairedMetric('path', base, headOf(3), 0.025, { gating: true })
    expect(m.setAside).toEqual([2])
    expect(m.ratios[2]).toBeCloseTo(3 * 1.04 * Math.exp(0.015), 6)
    expect(m.change).toBeCloseTo(1.04 * Math.exp(mean(spread.filter((_, i) => i !== 2))) - 1, 10)
    expect(m.verdict).toBe('regression')
    // Student's t on every pair: the stalled pair owns the variance, and the answer is gone.
    const plain = pairedMetric('path', base, headOf(3), 0.025, { gating: true, rule: null })
    expect(plain.setAside).toEqual([])
    expect(plain.verdict).toBe('inconclusive')
  })

  test('clean pairs are all kept, and a given set is left out of every metric', () => {
    expect(pairedMetric('path', base, headOf(1), 0.025).setAside).toEqual([])
    const m = pairedMetric('path', base, headOf(1), 0.025, { setAside: [0] })
    expect(m.setAside).toEqual([0])
    expect(m.change).toBeCloseTo(1.04 * Math.exp(mean(spread.slice(1))) - 1, 10)
  })
})

describe('the level a run’s cases share', () => {
  const looks = [6, 9, 14, 21, 30]
  test('each of k cases calls a change at α / k over its looks; "no change" keeps the whole α', () => {
    const one = sequentialLevels(looks, 0.05)
    const four = sequentialLevels(looks, 0.05, 4)
    expect(four.test).toBe(sequentialLevel(looks, 0.0125))
    expect(four.test).toBeLessThan(one.test)
    expect(four.test).toBeGreaterThan(0)
    expect(four.test).toBeLessThan(0.0125 / 2)
    expect(four.equivalence).toBe(one.equivalence)
    expect(() => sequentialLevels(looks, 0.05, 0)).toThrow(RangeError)
  })

  test('a case of four is judged at its share: its interval is wider than one case’s', () => {
    const base = [0.02, 0.021, 0.0205, 0.0198, 0.0202, 0.0207].map(runAt)
    const head = [0.021, 0.0222, 0.0213, 0.0207, 0.021, 0.0218].map(runAt)
    const at = (cases: number) =>
      interimVerdict('path', base, head, looks, { threshold: 0.025, cases })
    const [alone, shared] = [at(1), at(4)]
    expect(shared.change).toBe(alone.change)
    expect(shared.ci[0]).toBeLessThan(alone.ci[0])
    expect(shared.ci[1]).toBeGreaterThan(alone.ci[1])
    expect(shared.equivalence).toEqual(alone.equivalence)
  })
})

describe('"no change" from the equivalence interval (TOST)', () => {
  // Six pairs, log ratios mean 0, s = 0.02: t(0.995, 5) = 4.032143, t(0.95, 5) = 2.015048
  // (any t table): the 99 % interval is ±3.29 %, past ±2.5 %; the 90 % one ±1.65 %, inside.
  const logs = [0.02, -0.02, 0.02, -0.02, 0.02, -0.02].map(x => x * Math.sqrt(5 / 6))
  const base = logs.map(() => runAt(0.02))
  const head = logs.map(x => runAt(0.02 * Math.exp(x)))
  const judged = (equivalence: number) =>
    pairedMetric('path', base, head, 0.025, { rule: null, levels: { test: 0.01, equivalence } })

  test('both ends of the 1 − 2α interval inside the threshold show no change', () => {
    const m = judged(0.1)
    expect(m.ci[1]).toBeCloseTo(Math.exp((4.032143 * 0.02) / Math.sqrt(6)) - 1, 5)
    expect(m.equivalence[1]).toBeCloseTo(Math.exp((2.015048 * 0.02) / Math.sqrt(6)) - 1, 5)
    expect(m.verdict).toBe('no-change')
    expect(judged(0.01).verdict).toBe('inconclusive')
  })

  test('the detectable change is the 80 % power one at the upper bound of the spread', () => {
    const m = judged(0.1)
    // (t(0.995, 5) + t(0.8, 5)) · σ₈₀ / √6, t(0.8, 5) = 0.919544, σ₈₀ the spread's upper 80 %
    // bound: s · √(5 / χ²(0.2, 5)), χ²(0.2, 5) = 2.342541 (any χ² table).
    const bound = 0.02 * Math.sqrt(5 / 2.342541)
    expect(SPREAD_CONFIDENCE).toBe(0.8)
    expect(m.detectable).toBeCloseTo(
      Math.exp(((4.032143 + 0.919544) * bound) / Math.sqrt(6)) - 1,
      3
    )
    expect(m.detectable).toBeGreaterThan(
      Math.exp(((4.032143 + 0.919544) * 0.02) / Math.sqrt(6)) - 1
    )
    expect(m.detectable).toBeGreaterThan((m.ci[1] - m.ci[0]) / 2)
  })
})

describe('drift inside the job', () => {
  /**
   * Two builds measured in `order`, block k slowed by exp(g·k) (the machine heating up, another
   * job starting), with per-block noise; head = base × scale. Returns each side's runs in order.
   */
  function measure(order: Side[], scale: number, g: number, seed: number) {
    const r = rng(seed)
    const runs: Record<Side, number[][]> = { base: [], head: [] }
    order.forEach((side, k) => {
      const level = Math.exp(g * k + 0.001 * normal(r))
      const requests = Array.from({ length: 20 }, () => 0.1 * level * Math.exp(0.005 * normal(r)))
      runs[side].push(requests.map(x => x * (side === 'head' ? scale : 1)))
    })
    return runs
  }
  const abba = abbaOrder(6).map(b => b.side)
  const abab = abba.map((_, k): Side => (k % 2 ? 'head' : 'base'))

  test('ABBA cancels a linear drift that always running the head second turns into a regression', () => {
    let abbaFlags = 0
    let ababFlags = 0
    for (let seed = 1; seed <= 20; seed++) {
      // 1 % slower per block: 11 % from the first block to the last.
      const a = measure(abba, 1, 0.01, seed)
      const b = measure(abab, 1, 0.01, seed)
      const ma = pairedMetric('latency', a.base, a.head, 0.025, { gating: true })
      const mb = pairedMetric('latency', b.base, b.head, 0.025, { gating: true })
      expect(Math.abs(ma.change)).toBeLessThan(0.004)
      expect(mb.change).toBeGreaterThan(0.006)
      abbaFlags += Number(ma.verdict !== 'no-change')
      ababFlags += Number(mb.verdict !== 'no-change')
    }
    expect(abbaFlags).toBe(0)
    expect(ababFlags).toBe(0) // +1 % is under the 2.5 % threshold; a 3 % drift per block is not:
    const steep = measure(abab, 1, 0.03, 99)
    expect(pairedMetric('latency', steep.base, steep.head, 0.025).verdict).toBe('regression')
    // ABBA cancels it from the estimate, but the ±3 % it adds to every pair widens the interval
    // past ±2.5 %: not a change, and not shown to be none either.
    const steepAbba = measure(abba, 1, 0.03, 99)
    const m = pairedMetric('latency', steepAbba.base, steepAbba.head, 0.025)
    expect(Math.abs(m.change)).toBeLessThan(0.004)
    expect(m.verdict).toBe('inconclusive')
  })

  test('a 5 % slowdown under the same drift is found, its interval around 5 %', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const { base, head } = measure(abba, 1.05, 0.03, seed)
      const m = pairedMetric('latency', base, head, 0.025, { gating: true })
      expect(m.verdict).toBe('regression')
      expect(m.ci[0]).toBeLessThan(0.05)
      expect(m.ci[1]).toBeGreaterThan(0.05)
    }
  })
})

describe('comparing the two sides of a paired run', () => {
  const r = rng(11)
  const shape = { runs: 4, requests: 20, base: 0.1, runSd: 0.005, requestSd: 0.02, ar: 0.3 }
  const side = (scale: number, gnes: string) => {
    const result = makeResult([
      {
        id: '1',
        name: 'non-blocking',
        metrics: {
          roundtrip: makeRuns(r, { ...shape, scale }),
          'f->r1:send': makeRuns(r, { ...shape, base: 0.001, scale: 1 })
        }
      }
    ])
    return { ...result, meta: { ...result.meta, gnes: { ...result.meta.gnes!, version: gnes } } }
  }
  const run = {
    base: side(1, '0.0.46'),
    head: side(1.3, '0.0.47'),
    order: abbaOrder(4),
    interleave: 'blocks' as const
  }
  const c = comparePaired(run, { threshold: 0.1 })

  test('judges every metric both sides measured; only the headline gates', () => {
    expect(c.cases).toHaveLength(1)
    const [roundtrip, hop] = c.cases[0].metrics
    expect(roundtrip).toMatchObject({ metric: 'roundtrip', gating: true, verdict: 'regression' })
    expect(roundtrip.ratios).toHaveLength(4)
    expect(roundtrip.change).toBeGreaterThan(0.2)
    expect(hop).toMatchObject({ metric: 'f->r1:send', gating: false })
    expect(c.regression).toBe(true)
    expect(c.side).toMatchObject({
      base: { gnesVersion: '0.0.46' },
      head: { gnesVersion: '0.0.47' }
    })
    expect(c.commit).toBe(run.head.meta.git.sha)
  })

  test('leaves out the warm-up runs and a metric only one side has', () => {
    const lone = { ...run.head.cases[0], metrics: [...run.head.cases[0].metrics, 'r2:proc'] }
    const c2 = comparePaired({ ...run, head: { ...run.head, cases: [lone] } }, { threshold: 0.1 })
    expect(c2.cases[0].metrics.map(m => m.metric)).toEqual(['roundtrip', 'f->r1:send'])
    expect(c2.cases[0].metrics[0].ratios).toHaveLength(4)
  })
})
