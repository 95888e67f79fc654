/**
 * One time budget for a paired run: how long a case's runs are under `requests: auto`, what a pair
 * costs, and how the budget is shared by the cases (pure; no services run).
 */
import { pairedRunRequests } from '../src/client/plan'
import { deprecationNotes, parseInputs } from '../src/config/inputs'
import { caseShare } from '../src/judge/budget'
import { pairSeconds, spendBudget, type Share } from '../src/pipeline/suite/budget'
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

  const LOOKS = [6, 9, 14, 21, 30]

  /**
   * The four cases on a clock of their own, each taking its planned looks as a case does: its
   * first look, then in each `more` the next looks while their pairs (at its pair cost) fit in what
   * is left of its share. A case is decided at the look of `decideAt` (6: its first), or open
   * until its last look.
   */
  async function spent(budget: number, decideAt: Record<string, number> = {}) {
    let clock = 0
    const calls: string[] = []
    const shares: Record<string, Share[]> = {}
    const cases = ['1', '2', '3', '4'].map((id, i) => {
      const state = { pairs: 0, open: true }
      const added = () => LOOKS[LOOKS.indexOf(state.pairs) + 1] - state.pairs
      const take = (n: number) => {
        state.pairs += n
        clock += n * costs[i] * 1000
        state.open = state.pairs !== decideAt[id] && state.pairs < LOOKS[LOOKS.length - 1]
      }
      const looks = {
        get open() {
          return state.open
        },
        get pairs() {
          return state.pairs
        },
        get nextSec() {
          return state.open ? added() * costs[i] : 0
        },
        pause: async () => void calls.push(`pause ${id}`)
      }
      return { id, cost: costs[i], looks, take, added }
    })
    await spendBudget(
      cases,
      budget,
      {
        first: async c => {
          calls.push(`first ${c.id}`)
          c.take(LOOKS[0])
        },
        more: async (c, share) => {
          calls.push(`more ${c.id}`)
          ;(shares[c.id] ??= []).push(share)
          const began = clock
          while (c.looks.open && c.looks.nextSec <= share.sec - (clock - began) / 1000) {
            c.take(c.added())
          }
        }
      },
      () => clock
    )
    const steps = calls.filter(c => !c.startsWith('pause'))
    const pairs = Object.fromEntries(cases.map(c => [c.id, c.looks.pairs]))
    /** Whether any open case's next look would still fit in what is left. */
    const unspent = cases.some(c => c.looks.open && c.looks.nextSec <= budget - clock / 1000)
    return { calls, steps, shares, pairs, unspent, clock: clock / 1000 }
  }

  test("takes every case's first look first, then shares what is left among the undecided", async () => {
    const firstLooks = 6 * costs.reduce((a, b) => a + b)
    const budget = 900
    const { steps, shares, clock, unspent } = await spent(budget, { '2': 6, '4': 6 })
    expect(steps.slice(0, 6)).toEqual([
      'first 1',
      'first 2',
      'first 3',
      'first 4',
      'more 1',
      'more 3'
    ])
    // Cases 2 and 4, decided at their first look, leave their time to case 1 as much as to case 3.
    const left = budget - firstLooks
    expect(shares['1'][0]).toEqual({
      sec: (left * costs[0]) / (costs[0] + costs[2]),
      leftSec: left,
      cases: 2
    })
    // Case 3 gets at least its part, and all case 1 did not spend.
    expect(shares['3'][0].sec).toBeGreaterThanOrEqual((left * costs[2]) / (costs[0] + costs[2]))
    expect(clock).toBeLessThanOrEqual(budget)
    expect(unspent).toBe(false)
  })

  test('a case decided before its share is spent leaves the rest to every undecided case, before it too', async () => {
    const budget = 900
    // Case 3 decided at 9 pairs: case 1, stopped at 9 by its share, goes on in a second round.
    const { steps, pairs, shares, unspent } = await spent(budget, { '2': 6, '4': 6, '3': 9 })
    expect(steps.slice(4)).toEqual(['more 1', 'more 3', 'more 1'])
    expect(shares['1']).toHaveLength(2)
    expect(pairs['1']).toBeGreaterThan(9)
    expect(pairs['3']).toBe(9)
    expect(unspent).toBe(false)
    // Without case 3 deciding, case 1 stays at the 9 pairs its share held it to.
    expect((await spent(budget, { '2': 6, '4': 6 })).pairs['1']).toBe(9)
  })

  test('a case that stops before its share is spent leaves the rest to the undecided cases after it', async () => {
    const budget = 1800
    const all = await spent(budget)
    const early = await spent(budget, { '1': 9 })
    expect(early.shares['1'][0]).toEqual(all.shares['1'][0])
    expect(early.pairs['1']).toBeLessThan(all.pairs['1'])
    expect(early.shares['2'][0].sec).toBeGreaterThan(all.shares['2'][0].sec)
    // The cases after it measure longer with what it left (pairs times their cost).
    const after = (run: typeof all) =>
      [1, 2, 3].reduce((sec, i) => sec + run.pairs[String(i + 1)] * costs[i], 0)
    expect(after(early)).toBeGreaterThan(after(all))
    for (const run of [all, early]) {
      expect(run.clock).toBeLessThanOrEqual(budget)
      expect(run.unspent).toBe(false)
    }
  })

  test('all decided at the first look: no more pairs; over the budget at the first looks: shares of nothing', async () => {
    const decided = { '1': 6, '2': 6, '3': 6, '4': 6 }
    expect((await spent(900, decided)).steps).toEqual(['first 1', 'first 2', 'first 3', 'first 4'])
    // One round, each case told it has nothing, and none after it.
    const over = await spent(60)
    expect(over.steps.slice(4)).toEqual(['more 1', 'more 2', 'more 3', 'more 4'])
    for (const id of ['1', '2', '3', '4'])
      expect(over.shares[id]).toEqual([expect.objectContaining({ sec: 0, leftSec: 0 })])
  })

  test("frees the machine before another case's step and at the end; a case goes on where it stopped", async () => {
    // Only case 4 undecided: its first look and its later looks follow each other, kept up.
    const { calls } = await spent(900, { '1': 6, '2': 6, '3': 6 })
    expect(calls.slice(0, 9)).toEqual([
      'first 1',
      'pause 1',
      'first 2',
      'pause 2',
      'first 3',
      'pause 3',
      'first 4',
      'more 4',
      'pause 1'
    ])
    expect(calls.slice(8).sort()).toEqual(['pause 1', 'pause 2', 'pause 3', 'pause 4'])
    // Case 1 undecided: paused after its first look, as every case before another's step.
    expect((await spent(900, { '2': 6, '3': 6, '4': 6 })).calls.slice(6, 9)).toEqual([
      'first 4',
      'pause 4',
      'more 1'
    ])
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
