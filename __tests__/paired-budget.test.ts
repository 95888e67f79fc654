/**
 * One time budget for a paired run: how long a case's runs are under `requests: auto`, what a pair
 * costs, and how the budget is shared by the cases (pure; no services run).
 */
import { pairedRunRequests } from '../src/client/plan'
import { deprecationNotes, parseInputs } from '../src/config/inputs'
import { lookSchedule } from '../src/judge/sequential'
import { caseShare, pairSeconds } from '../src/pipeline/suite/budget'
import { caseLoad, type PairedSettings } from '../src/pipeline/suite/paired-case'
import { resolveTopology } from '../src/topology/load'
import type { Load } from '../src/result/schema'

/** The four standard cases' minimal rates, from their topology files. */
const rates = ['1', '2', '3', '4'].map(id => resolveTopology(id).topology.minimalRate)

const paired = parseInputs({ baseline: 'paired', 'baseline-gnes-version': '0.0.46' })
const suiteLoad: Load = {
  docs: paired.docs,
  batchSize: paired['batch-size'],
  docBytes: paired['doc-bytes'],
  runs: paired.runs,
  requests: 60,
  warmupRequests: paired['warmup-requests']
}
const defaults: Pick<PairedSettings, 'redeploy' | 'interleave' | 'sizeRuns'> = {
  redeploy: true,
  interleave: 'requests',
  sizeRuns: true
}
const minimal = (rate: number) => ({ kind: 'minimal' as const, rate })

describe('a paired run under requests: auto', () => {
  test('is sized per case: the inputs leave it to the case, history mode keeps its count', () => {
    expect(paired.requests).toBeNull()
    expect(parseInputs({}).requests).toBeGreaterThan(0)
    expect(
      parseInputs({ baseline: 'paired', 'baseline-gnes-version': '0.0.46', requests: '40' })
        .requests
    ).toBe(40)
  })

  test("lasts no longer than the standard case's run, within its fewest and most requests", () => {
    const [least, most] = [pairedRunRequests(0.01), pairedRunRequests(10_000)]
    const standard = pairedRunRequests(rates[0]) / rates[0]
    for (const r of rates) {
      const n = pairedRunRequests(r)
      expect(n).toBeGreaterThanOrEqual(least)
      expect(n).toBeLessThanOrEqual(most)
      if (n > least) expect(n / r).toBeLessThanOrEqual(standard + 1 / r)
    }
    // The blocking cases' runs are shorter in requests than the non-blocking ones'.
    expect(pairedRunRequests(rates[1])).toBeLessThan(pairedRunRequests(rates[0]))
    expect(pairedRunRequests(rates[3])).toBeLessThan(pairedRunRequests(rates[2]))
    // However slow the rate, a run keeps enough requests for its median.
    expect(least).toBeGreaterThanOrEqual(10)
  })

  test("is the case's load; a given requests count is kept as it is", () => {
    expect(caseLoad(minimal(rates[1]), suiteLoad, true).requests).toBe(pairedRunRequests(rates[1]))
    expect(caseLoad(minimal(rates[1]), suiteLoad, false).requests).toBe(suiteLoad.requests)
    expect(caseLoad({ kind: 'burst' }, suiteLoad, true)).toBe(suiteLoad)
  })
})

describe("a pair's cost", () => {
  test('follows the schedule: a slower rate costs more, a burst has none to tell', () => {
    const costs = rates.map(r => pairSeconds(minimal(r), suiteLoad, defaults)!)
    const load = (r: number) => caseLoad(minimal(r), suiteLoad, true)
    for (const [i, r] of rates.entries()) {
      // At least the measured run and the warm-up on schedule.
      expect(costs[i]).toBeGreaterThan((load(r).requests + 5) / r)
    }
    expect(costs[1]).toBeGreaterThan(costs[0])
    expect(pairSeconds({ kind: 'burst' }, suiteLoad, defaults)).toBeNull()
  })

  test('blocks take turns and cost more than both sides at once; one deployment costs less', () => {
    const at = (s: Partial<typeof defaults>) =>
      pairSeconds(minimal(rates[0]), suiteLoad, { ...defaults, ...s })!
    expect(at({ interleave: 'blocks' })).toBeGreaterThan(at({}))
    expect(at({ redeploy: false })).toBeLessThan(at({}))
  })
})

describe("the run's budget shared by its cases", () => {
  const costs = rates.map(r => pairSeconds(minimal(r), suiteLoad, defaults)!)

  test('in proportion to pair costs, so undecided cases reach the same pairs, the budget spent', () => {
    const budget = 900
    let left = budget
    const pairsBought: number[] = []
    for (let i = 0; i < costs.length; i++) {
      const share = caseShare(left, costs.slice(i))
      pairsBought.push(share / costs[i])
      left -= share
    }
    for (const p of pairsBought) expect(p).toBeCloseTo(budget / costs.reduce((a, b) => a + b), 9)
    expect(left).toBeCloseTo(0, 9)
  })

  test('a case decided early leaves its time to the cases after it', () => {
    const budget = 1200
    const looks = lookSchedule(paired.runs, paired['max-pairs'])
    const first = caseShare(budget, costs)
    const spent = looks[0] * costs[0]
    expect(spent).toBeLessThan(first)
    const after = caseShare(budget - spent, costs.slice(1))
    expect(after).toBeGreaterThan(caseShare(budget - first, costs.slice(1)))
    // Undecided, the same case would have kept its whole share.
    expect(caseShare(budget - first, costs.slice(1))).toBeCloseTo(
      (budget * costs[1]) / costs.reduce((a, b) => a + b),
      9
    )
  })

  test('shares equally when a cost is unknown, gives the last case all that is left, never less than nothing', () => {
    expect(caseShare(600, [costs[0], null, costs[2]])).toBe(200)
    expect(caseShare(300, [costs[3]])).toBe(300)
    expect(caseShare(-40, costs)).toBe(0)
    expect(() => caseShare(100, [])).toThrow(RangeError)
  })
})

describe('the budget input', () => {
  const base = { baseline: 'paired', 'baseline-gnes-version': '0.0.46' } as const

  test("is the whole run's minutes", () => {
    expect(parseInputs({ ...base, 'paired-budget-minutes': '20' })['paired-budget-minutes']).toBe(
      20
    )
    expect(parseInputs(base)['paired-budget-minutes']).toBeGreaterThan(0)
  })

  test('takes the deprecated per-case budget as that many minutes for each case, with a warning', () => {
    const old = { ...base, cases: '1,3', 'pairs-budget-minutes': '10' }
    expect(parseInputs(old)['paired-budget-minutes']).toBe(20)
    expect(deprecationNotes(old)).toEqual([
      expect.stringContaining('pairs-budget-minutes is deprecated')
    ])
    expect(deprecationNotes(base)).toEqual([])
    expect(() => parseInputs({ ...old, 'paired-budget-minutes': '30' })).toThrow(
      /pairs-budget-minutes is deprecated and paired-budget-minutes is set too/
    )
    expect(() => parseInputs({ ...base, 'pairs-budget-minutes': 'soon' })).toThrow(
      /pairs-budget-minutes must be a number of minutes/
    )
  })
})
