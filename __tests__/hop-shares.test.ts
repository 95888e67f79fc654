import {
  centralRequests,
  hopShares,
  partsOf,
  runDecomposition,
  type HopShares
} from '../src/judge/hop-shares'
import { ratioInterval } from '../src/inference/fieller'
import { pairs, PARTS, runSamples, seeded, type Slowdown } from './helpers/requests'

const METRICS = ['latency', 'c->f:send', 'path', ...Object.keys(PARTS)]
const ALPHA = 0.05

/** `trials` simulated paired cases of `n` pairs, the head slowed as given, split by `gate`. */
function simulate(
  seed: number,
  trials: number,
  head: { slow?: Slowdown[]; clientSeconds?: number },
  gate = 'path',
  n = 8
): HopShares[] {
  const draw = seeded(seed)
  return Array.from({ length: trials }, () => {
    const p = pairs(draw, n, 30, head)
    return hopShares(gate, METRICS, p.base, p.head, ALPHA)!
  })
}

const sumOf = (s: HopShares): number => s.parts.reduce((a, p) => a + p.delta, 0) + s.residual.delta

const part = (s: HopShares, metric: string) => s.parts.find(p => p.metric === metric)!

const covers = (ci: readonly [number, number] | null, x: number): boolean =>
  ci !== null && ci[0] <= x && x <= ci[1]

const rate = (xs: readonly boolean[]): number => xs.filter(Boolean).length / xs.length

describe('which parts make up a verdict metric', () => {
  test('`path` leaves out the client’s transfer; `latency` and generic hops hold every part', () => {
    expect(partsOf('path', METRICS)).toEqual(Object.keys(PARTS))
    expect(partsOf('latency', METRICS)).toEqual(['c->f:send', ...Object.keys(PARTS)])
    expect(partsOf('latency', ['latency', 'latency:sent', 'c:lag', 'hop:db', 'hop:cache'])).toEqual(
      ['hop:db', 'hop:cache']
    )
  })

  test('the central band holds the requests between its quantiles, by rank', () => {
    const values = [5, 1, 9, 3, 7, 2, 8, 4]
    const band = centralRequests(values, [0.25, 0.75]).map(j => values[j])
    expect([...band].sort((a, b) => a - b)).toEqual([3, 4, 5, 7])
    expect(centralRequests([4], [0.25, 0.75])).toEqual([0])
  })

  test('a run’s band means of the parts and the residual add up to the verdict metric’s', () => {
    const run = runSamples(seeded(1), 30, 1)
    const own = runDecomposition('path', Object.keys(PARTS), run)
    expect(own.parts.reduce((a, b) => a + b, 0) + own.residual).toBeCloseTo(own.total, 15)
    expect(Math.abs(own.residual)).toBeLessThan(1e-15)
    const client = runDecomposition('latency', Object.keys(PARTS), run)
    // Without the client's transfer among the parts, it is the residual.
    const central = centralRequests(run.latency, [0.25, 0.75])
    const transfer = central.reduce((a, j) => a + run['c->f:send'][j], 0) / central.length
    expect(client.residual).toBeCloseTo(transfer, 12)
  })
})

describe('hop shares that add up', () => {
  test('a hop slowed on every request: the contributions sum to the change, the hop’s interval covers its truth', () => {
    const slow = [{ part: 'r1:proc', seconds: 0.001, share: 1 }]
    const runs = simulate(11, 200, { slow })
    for (const s of runs) expect(sumOf(s)).toBeCloseTo(s.total.delta, 12)
    // Its added time, and its share of a change it alone made: 100 %.
    expect(rate(runs.map(s => covers(part(s, 'r1:proc').ci, 0.001)))).toBeGreaterThanOrEqual(0.93)
    const shared = runs.filter(s => part(s, 'r1:proc').share !== null)
    expect(shared.length).toBeGreaterThanOrEqual(190)
    expect(rate(shared.map(s => covers(part(s, 'r1:proc').shareCi, 1)))).toBeGreaterThanOrEqual(0.9)
    expect(rate(runs.map(s => part(s, 'r1:proc').moved))).toBeGreaterThanOrEqual(0.95)
    // No other part is named as moved beyond the level the parts hold together at.
    const others = runs.map(s => s.parts.some(p => p.metric !== 'r1:proc' && p.moved))
    expect(rate(others)).toBeLessThanOrEqual(0.08)
  })

  test('a hop slowed on 40 % of the requests is named, and its interval covers the share it alone made', () => {
    const slow = [{ part: 'r1:proc', seconds: 0.0025, share: 0.4 }]
    const runs = simulate(12, 200, { slow })
    for (const s of runs) expect(sumOf(s)).toBeCloseTo(s.total.delta, 12)
    expect(rate(runs.map(s => part(s, 'r1:proc').moved))).toBeGreaterThanOrEqual(0.9)
    const shared = runs.filter(s => part(s, 'r1:proc').share !== null)
    expect(rate(shared.map(s => covers(part(s, 'r1:proc').shareCi, 1)))).toBeGreaterThanOrEqual(0.9)
  })

  test('a hop that moved the other way is named with its sign, and the shares go past 100 %', () => {
    const slow = [
      { part: 'r1:proc', seconds: 0.001, share: 1 },
      { part: 'r1->r2:send', seconds: -0.0003, share: 1 }
    ]
    const runs = simulate(13, 200, { slow })
    const faster = runs.map(s => part(s, 'r1->r2:send'))
    expect(rate(faster.map(p => covers(p.ci, -0.0003)))).toBeGreaterThanOrEqual(0.93)
    expect(rate(faster.map(p => p.moved && p.delta < 0))).toBeGreaterThanOrEqual(0.9)
    // r1:proc made 1 / 0.7 of the net change, the faster hop −0.3 / 0.7 of it.
    const slowed = runs.map(s => part(s, 'r1:proc')).filter(p => p.shareCi)
    expect(rate(slowed.map(p => covers(p.shareCi, 1 / 0.7)))).toBeGreaterThanOrEqual(0.9)
    const back = faster.filter(p => p.shareCi)
    expect(rate(back.map(p => covers(p.shareCi, -0.3 / 0.7)))).toBeGreaterThanOrEqual(0.9)
  })

  test('time no part measures is the residual, with its own interval', () => {
    const runs = simulate(14, 200, { clientSeconds: 0.0005 }, 'latency')
    for (const s of runs) expect(sumOf(s)).toBeCloseTo(s.total.delta, 12)
    // `c->f:send` is a part of `latency` here; without it among the metrics it is the residual.
    expect(rate(runs.map(s => covers(part(s, 'c->f:send').ci, 0.0005)))).toBeGreaterThanOrEqual(
      0.93
    )
    const draw = seeded(15)
    const hidden = Array.from({ length: 200 }, () => {
      const p = pairs(draw, 8, 30, { clientSeconds: 0.0005 })
      return hopShares('latency', ['latency', ...Object.keys(PARTS)], p.base, p.head, ALPHA)!
    })
    expect(rate(hidden.map(s => covers(s.residual.ci, 0.0005)))).toBeGreaterThanOrEqual(0.9)
    expect(rate(hidden.map(s => s.residual.moved))).toBeGreaterThanOrEqual(0.9)
  })

  test('a hop not reported on every request stays in the residual; too few pairs give no split', () => {
    const p = pairs(seeded(16), 4, 30)
    const gappy = p.head.map((r, i) => (i === 0 ? { ...r, 'r2:proc': r['r2:proc'].slice(1) } : r))
    const s = hopShares('path', METRICS, p.base, gappy, ALPHA)!
    expect(s.parts.map(x => x.metric)).not.toContain('r2:proc')
    expect(sumOf(s)).toBeCloseTo(s.total.delta, 12)
    expect(hopShares('path', METRICS, p.base.slice(0, 1), p.head.slice(0, 1), ALPHA)).toBeNull()
    expect(hopShares('latency', ['latency', 'c:lag'], p.base, p.head, ALPHA)).toBeNull()
  })
})

describe('the share’s interval (Fieller’s)', () => {
  test('holds the ratio of the means, and is null when the total’s interval holds zero', () => {
    const t = [1, 1.2, 0.9, 1.1, 1.05]
    const c = t.map((x, i) => 0.5 * x + (i % 2 ? 0.01 : -0.01))
    const r = ratioInterval(c, t, ALPHA)!
    const ratio = c.reduce((a, b) => a + b) / t.reduce((a, b) => a + b)
    expect(r.share).toBeCloseTo(ratio, 12)
    expect(r.ci[0]).toBeLessThan(r.share)
    expect(r.ci[1]).toBeGreaterThan(r.share)
    expect(ratioInterval(c, [1, -1, 0.5, -0.5, 0.1], ALPHA)).toBeNull()
  })
})
