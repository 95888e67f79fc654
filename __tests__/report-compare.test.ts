import { compareMetric, compareResult, type Verdict } from '../src/judge/compare'
import { median } from '../src/stats/sample'
import { trimmedTTest } from '../src/inference/yuen'
import { makeEntry, makeResult, makeRuns, rng, type RunShape } from './fixtures/report/samples'

/** Non-blocking case: per-request noise ±20%, autocorrelated along the run, runs drift ±3%. */
const NON_BLOCKING: Omit<RunShape, 'scale'> = {
  runs: 5,
  requests: 50,
  base: 0.1,
  runSd: 0.03,
  requestSd: 0.2,
  ar: 0.6
}
/** Blocking case: requests queue at a sleeping router, so roundtrip grows along the run. */
const BLOCKING: Omit<RunShape, 'scale'> = {
  runs: 5,
  requests: 50,
  base: 0.1,
  runSd: 0.01,
  requestSd: 0.02,
  ar: 0.5,
  ramp: true
}
/** As NON_BLOCKING, plus 10% of requests stalled by Pareto(1.5)-distributed factors. */
const HEAVY_TAILED: Omit<RunShape, 'scale'> = { ...NON_BLOCKING, stallRate: 0.1 }

const SEEDS = 40

function verdicts(shape: Omit<RunShape, 'scale'>, scale: number, threshold: number) {
  const counts: Record<Verdict, number> = {
    regression: 0,
    improvement: 0,
    'no-change': 0,
    inconclusive: 0
  }
  for (let seed = 1; seed <= SEEDS; seed++) {
    const r = rng(seed)
    const base = makeRuns(r, { ...shape, scale: 1 })
    const pr = makeRuns(r, { ...shape, scale })
    counts[compareMetric('roundtrip', base, pr, threshold).verdict]++
  }
  return counts
}

describe('verdict on constructed samples (seeded)', () => {
  test('identical samples: no change, p = 1', () => {
    const runs = makeRuns(rng(1), { ...NON_BLOCKING, scale: 1 })
    const m = compareMetric('roundtrip', runs, runs, 0.1)
    // Three runs a side spread too far for their interval to fit inside ±10 %: the same samples
    // are not a change, and these few runs cannot show that they are none.
    expect(m).toMatchObject({ change: 0, p: 1, verdict: 'inconclusive', method: 'run-medians' })
    expect(m.detectable!).toBeGreaterThan(0.1)
    const many = makeRuns(rng(1), { ...NON_BLOCKING, scale: 1, runs: 20 })
    expect(compareMetric('roundtrip', many, many, 0.1).verdict).toBe('no-change')
  })

  test('no shift: false verdicts stay near the 5% level, on every shape', () => {
    for (const shape of [NON_BLOCKING, BLOCKING, HEAVY_TAILED]) {
      const c = verdicts(shape, 1, 0)
      expect(c.regression + c.improvement).toBeLessThanOrEqual(4)
    }
  })

  test('+20%: regression; −20%: improvement (threshold 10%)', () => {
    expect(verdicts(NON_BLOCKING, 1.2, 0.1).regression).toBeGreaterThanOrEqual(38)
    expect(verdicts(NON_BLOCKING, 0.8, 0.1).improvement).toBeGreaterThanOrEqual(38)
    expect(verdicts(BLOCKING, 1.2, 0.1).regression).toBe(SEEDS)
  })

  test('with 3 runs the same +20% is often not significant: fewer runs, less power', () => {
    const c = verdicts({ ...NON_BLOCKING, runs: 3 }, 1.2, 0.1)
    expect(c.regression).toBeLessThan(36)
    expect(c.improvement).toBe(0)
    // What it misses it calls inconclusive: never "no change" for a change twice the threshold.
    expect(c['no-change']).toBe(0)
    expect(c.inconclusive).toBe(SEEDS - c.regression)
  })

  test('2 runs a side, twice as slow on a noisy runner: regression or inconclusive, never no change', () => {
    const noisy = { ...HEAVY_TAILED, runs: 2, runSd: 0.4 }
    const c = verdicts(noisy, 2, 0.1)
    expect(c['no-change']).toBe(0)
    expect(c.regression + c.inconclusive).toBeGreaterThanOrEqual(SEEDS - 2)
    expect(c.inconclusive).toBeGreaterThan(0)
  })

  test('+5%: below a 10% threshold it is no change, above a 2% one it is found', () => {
    expect(verdicts(BLOCKING, 1.05, 0.1).regression).toBeLessThanOrEqual(2)
    expect(verdicts(BLOCKING, 1.05, 0.02).regression).toBeGreaterThanOrEqual(36)
  })

  test('heavy-tailed noise: per-run medians still see +20%', () => {
    expect(verdicts(HEAVY_TAILED, 1.2, 0.1).regression).toBeGreaterThanOrEqual(34)
  })

  test('10 runs with a stalled run on each side: trimming keeps +10% visible', () => {
    let trimmed = 0
    let welch = 0
    const stall = (runs: number[][], k: number) =>
      runs.map((r, i) => (i === k ? r.map(x => x * 1.6) : r))
    for (let seed = 1; seed <= SEEDS; seed++) {
      const r = rng(seed)
      const shape = { ...BLOCKING, runs: 10 }
      const a = stall(makeRuns(r, { ...shape, scale: 1 }), seed % 10)
      const b = stall(makeRuns(r, { ...shape, scale: 1.1 }), (seed * 7) % 10)
      if (compareMetric('roundtrip', a, b, 0.05).verdict === 'regression') trimmed++
      const logMedians = (runs: number[][]) => runs.map(x => Math.log(median(x)))
      const w = trimmedTTest(logMedians(a), logMedians(b), { trim: 0 })
      if (w.p < 0.05 && Math.exp(w.diff) - 1 >= 0.05) welch++
    }
    expect(trimmed).toBeGreaterThanOrEqual(38)
    expect(welch).toBeLessThan(trimmed)
  })

  test('why not pool the requests: a t-test on pooled requests flags drift as significant', () => {
    let pooled = 0
    let runLevel = 0
    for (let seed = 1; seed <= SEEDS; seed++) {
      const r = rng(seed)
      const a = makeRuns(r, { ...NON_BLOCKING, scale: 1 })
      const b = makeRuns(r, { ...NON_BLOCKING, scale: 1 })
      if (trimmedTTest(a.flat().map(Math.log), b.flat().map(Math.log), { trim: 0 }).p < 0.05)
        pooled++
      if (compareMetric('roundtrip', a, b, 0).p! < 0.05) runLevel++
    }
    expect(pooled).toBeGreaterThan(8)
    expect(runLevel).toBeLessThanOrEqual(3)
  })

  test('a side with one run gets the threshold alone, labelled untested', () => {
    const r = rng(3)
    const base = makeRuns(r, { ...NON_BLOCKING, runs: 1, scale: 1 })
    const pr = makeRuns(r, { ...NON_BLOCKING, scale: 1.5 })
    const m = compareMetric('roundtrip', base, pr, 0.1)
    expect(m).toMatchObject({ method: 'threshold-only', ci: null, p: null, verdict: 'regression' })
    expect(m.note).toMatch(/baseline has fewer than 2 measured runs/)
  })
})

describe('compareResult', () => {
  const r = rng(11)
  const shape = { ...NON_BLOCKING, runs: 3, requests: 20, scale: 1 }
  const base = {
    id: '1',
    metrics: { roundtrip: makeRuns(r, shape), 'f->r1:send': makeRuns(r, shape) }
  }
  const pr = {
    id: '1',
    metrics: {
      roundtrip: makeRuns(r, { ...shape, scale: 1.3 }),
      'f->r1:send': makeRuns(r, shape)
    }
  }
  const opts = { threshold: 0.1, baseRef: 'main', mergeBaseSha: null }

  test('splits pooled baseline samples back into runs and tests every metric', () => {
    const c = compareResult(makeResult([pr]), [makeEntry(base)], opts)
    expect(c.regression).toBe(true)
    const [roundtrip, hop] = c.cases[0].metrics
    expect(roundtrip).toMatchObject({
      metric: 'roundtrip',
      headline: true,
      gating: true,
      verdict: 'regression'
    })
    expect(roundtrip.runs).toEqual({ baseline: 3, pr: 3 })
    expect(roundtrip.change).toBeGreaterThan(0.15)
    expect(hop).toMatchObject({ metric: 'f->r1:send', headline: false, method: 'run-medians' })
  })

  test('only the roundtrip decides `regression`: a slower hop alone is shown, not gating', () => {
    const hop = makeRuns(r, shape)
    const baseline = { id: '1', metrics: { roundtrip: base.metrics.roundtrip, 'f->r1:send': hop } }
    const slowHop = {
      id: '1',
      metrics: { roundtrip: base.metrics.roundtrip, 'f->r1:send': hop.map(x => x.map(v => v * 2)) }
    }
    const c = compareResult(makeResult([slowHop]), [makeEntry(baseline)], opts)
    expect(c.cases[0].metrics[1]).toMatchObject({ verdict: 'regression', gating: false })
    expect(c.cases[0].metrics[0]).toMatchObject({ gating: true, verdict: 'inconclusive' })
    expect(c.regression).toBe(false)
  })

  test('a baseline without samples falls back to best run means, labelled', () => {
    const c = compareResult(makeResult([pr]), [makeEntry(base, { noSamples: true })], opts)
    const m = c.cases[0].metrics[0]
    expect(m).toMatchObject({ method: 'threshold-only', p: null })
    expect(m.note).toMatch(/no per-request samples/)
  })

  test('no baseline: the case says why and counts as no regression', () => {
    const c = compareResult(makeResult([pr, { ...pr, id: '2' }]), [makeEntry(base)], opts)
    expect(c.cases[1].baseline).toEqual({ entry: null, reason: 'no history entry of case 2' })
    expect(c.cases[1].metrics).toEqual([])
  })
})
