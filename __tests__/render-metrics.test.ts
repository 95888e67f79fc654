import { hopColors, hopMetrics, unaccountedTime, UNACCOUNTED } from '../src/render/metrics'

describe('hop charts', () => {
  test('hops in path order, service times between their transfers', () => {
    expect(
      hopMetrics(['latency', 'r2:proc', 'f->r1:send', 'c->f:send', 'r1:proc', 'r1->r2:send'])
    ).toEqual(['c->f:send', 'f->r1:send', 'r1:proc', 'r1->r2:send', 'r2:proc'])
    expect(hopMetrics(['latency', 'hop:b', 'hop:a'])).toEqual(['hop:b', 'hop:a'])
  })

  test('a hop has one colour wherever it is drawn; the rest is grey', () => {
    const fromClient = hopColors(['c->f:send', 'f->r1:send', 'r1:proc'])
    const fromFrontend = hopColors(['f->r1:send', 'r1:proc', 'r1->r2:send', 'r2->f:send'])
    expect(fromFrontend.slice(0, 2)).toEqual(fromClient.slice(1))
    expect(new Set([...fromClient, ...fromFrontend]).size).toBe(5)
    expect(hopColors(['hop:a', 'hop:b', UNACCOUNTED])).toEqual(['#4c78a8', '#f58518', '#bab0ac'])
  })

  test('the rest of a generic request: its latency less the hops its system reported', () => {
    const hops = ['hop:a', 'hop:b']
    expect(unaccountedTime({ latency: 0.01, 'hop:a': 0.003, 'hop:b': 0.002 }, hops)).toBeCloseTo(
      0.005,
      12
    )
    // A burst's figure is its roundtrip; hops that add up past it leave no negative rest.
    expect(unaccountedTime({ roundtrip: 0.004, 'hop:a': 0.003, 'hop:b': 0.002 }, hops)).toBe(0)
    // GNES's hops cover its path by construction; no whole-request figure, no rest.
    expect(unaccountedTime({ latency: 0.01, 'f->r1:send': 0.001 }, ['f->r1:send'])).toBeNull()
    expect(unaccountedTime({ 'hop:a': 0.003 }, ['hop:a'])).toBeNull()
  })
})
