/**
 * Counterbalanced sides: the plan of which side goes first in each pair, and what alternating it
 * does to a fixed order effect in the paired estimate (constructed samples, no services).
 */
import { abbaOrder, orderLetters, pairLead, pairSides, type Side } from '../src/client/interleave'
import { pairedMetric } from '../src/judge/paired'
import { RunResultSchema } from '../src/metrics/schema'
import { withOutcomes, type Measured, type SideOutcome } from '../src/pipeline/suite/paired-case'
import { makeResult, normal, rng } from './fixtures/report/samples'

describe('which side goes first', () => {
  test('alternates pair by pair, starting with the base', () => {
    const leads = Array.from({ length: 6 }, (_, pair) => pairLead(pair))
    expect(leads).toEqual(['base', 'head', 'base', 'head', 'base', 'head'])
    for (let pair = 0; pair < 6; pair++) {
      expect(pairSides(pair)[0]).toBe(pairLead(pair))
      expect(new Set(pairSides(pair))).toEqual(new Set(['base', 'head']))
    }
  })

  test('every even number of pairs has each side first equally often, whatever look it stops at', () => {
    for (const pairs of [2, 6, 14, 30]) {
      const first = Array.from({ length: pairs }, (_, pair) => pairLead(pair))
      expect(first.filter(s => s === 'base')).toHaveLength(pairs / 2)
    }
    for (const pairs of [9, 21]) {
      const first = Array.from({ length: pairs }, (_, pair) => pairLead(pair))
      const base = first.filter(s => s === 'base').length
      expect(base - (pairs - base)).toBe(1)
    }
  })

  test('is the block order too: each pair opens with the side that goes first in it', () => {
    const order = abbaOrder(4)
    expect(orderLetters(order)).toBe('ABBAABBA')
    for (let pair = 0; pair < 4; pair++) expect(order[2 * pair].side).toBe(pairLead(pair))
  })
})

describe('a fixed order effect', () => {
  /**
   * Six pairs of runs of identical builds, each run 60 values around 50 ms with 3 % noise per
   * request and 1 % per run; the side that goes first in a pair (by `first`) is `effect` slower.
   */
  function series(first: (pair: number) => Side, effect: number, seed: number) {
    const r = rng(seed)
    const runs: Record<Side, number[][]> = { base: [], head: [] }
    for (let pair = 0; pair < 6; pair++) {
      for (const side of ['base', 'head'] as const) {
        const level = 0.05 * Math.exp(0.01 * normal(r)) * (side === first(pair) ? 1 + effect : 1)
        runs[side].push(Array.from({ length: 60 }, () => level * Math.exp(0.03 * normal(r))))
      }
    }
    return runs
  }
  const effect = 0.02
  const estimate = (first: (pair: number) => Side, e: number, seed: number) => {
    const { base, head } = series(first, e, seed)
    return pairedMetric('path', base, head, 0.025)
  }

  test('the base always first turns it into a change of the head; alternating cancels it', () => {
    for (let seed = 1; seed <= 20; seed++) {
      // The same draws with and without the effect: the effect is all that differs.
      const none = estimate(pairLead, 0, seed)
      const fixed = estimate(() => 'base', effect, seed)
      const alternating = estimate(pairLead, effect, seed)
      // Always first, the base is the slower side: the head looks faster by the whole effect.
      expect((1 + fixed.change) * (1 + effect)).toBeCloseTo(1 + none.change, 12)
      // Alternating over an even number of pairs, it adds +e to half the pairs' log ratios and −e
      // to the others: the estimate is what the same pairs without it give.
      expect(alternating.change).toBeCloseTo(none.change, 12)
    }
  })

  test('alternating, it counts as spread: the interval widens instead of moving', () => {
    let wider = 0
    for (let seed = 1; seed <= 20; seed++) {
      const alternating = estimate(pairLead, effect, seed)
      const none = estimate(pairLead, 0, seed)
      const width = (m: { ci: [number, number] }) => m.ci[1] - m.ci[0]
      wider += Number(width(alternating) > width(none))
      expect(alternating.ci[0]).toBeLessThan(0)
      expect(alternating.ci[1]).toBeGreaterThan(0)
    }
    expect(wider).toBe(20)
  })
})

describe('the runs of a paired case', () => {
  const [runs] = [makeResult([{ id: '1', metrics: { path: [[0.05, 0.051]] } }]).cases[0].runs]
  const outcome = (side: Side, lead: Side): SideOutcome => ({
    side,
    lead,
    outcome: { ...makeResult([{ id: '1', metrics: { path: [[0.05]] } }]).cases[0], runs }
  })

  test('record the side that went first in their pair, numbered on per side', () => {
    const empty: Measured = { runs: { base: [], head: [] }, metrics: { base: [], head: [] } }
    const pairs = [0, 1, 2].flatMap(pair =>
      pairSides(pair).map(side => outcome(side, pairLead(pair)))
    )
    const m = withOutcomes(empty, pairs)
    for (const side of ['base', 'head'] as const) {
      expect(m.runs[side].map(r => r.index)).toEqual([0, 1, 2, 3, 4, 5])
      // Each pair's stream is its warm-up and its run, both of the pair's lead.
      expect(m.runs[side].map(r => r.pairLead)).toEqual([
        'base',
        'base',
        'head',
        'head',
        'base',
        'base'
      ])
      for (const run of m.runs[side]) expect(RunResultSchema.parse(run)).toEqual(run)
    }
  })

  test('read from a result written before, have no lead', () => {
    expect('pairLead' in runs[1]).toBe(false)
    expect(RunResultSchema.parse(runs[1]).pairLead).toBeUndefined()
  })
})
