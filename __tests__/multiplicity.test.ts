import { holmAdjusted } from '../src/inference/holm'
import { diagnose, diagnosticLevel } from '../src/judge/multiplicity'
import { pairedMetric } from '../src/judge/paired'
import { pairs, PARTS, seeded } from './helpers/requests'

describe('Holm’s adjusted p-values', () => {
  test('step down: the smallest p times m, the next times m − 1, never below an earlier one', () => {
    // Sorted: 0.005 × 4, 0.01 × 3, 0.03 × 2 (0.06), 0.04 × 1 (0.04, raised to 0.06).
    expect(holmAdjusted([0.01, 0.04, 0.03, 0.005])).toEqual([0.03, 0.06, 0.06, 0.02])
  })

  test('an untested row stays untested and does not count; none is above 1', () => {
    expect(holmAdjusted([0.02, null, 0.5])).toEqual([0.04, null, 0.5])
    expect(holmAdjusted([0.6, 0.7])).toEqual([1, 1])
    expect(holmAdjusted([])).toEqual([])
  })
})

describe('the level a paired case’s diagnostics are read at', () => {
  test('its share of α over its looks, never above the level of its intervals', () => {
    // Holm at that level at each of the looks, summed over them, is the case's share.
    expect(diagnosticLevel(0.0114, 0.05, 5)).toBeCloseTo(0.01, 12)
    expect(diagnosticLevel(0.0017, 0.0125, 5)).toBeCloseTo(0.0017, 12)
    expect(diagnosticLevel(0.0441, 0.05, 1)).toBe(0.0441)
    expect(5 * diagnosticLevel(0.0114, 0.05, 5)).toBeLessThanOrEqual(0.05)
  })
})

describe('diagnostics as evidence', () => {
  const row = (metric: string, p: number | null, change: number, gating = false) => ({
    metric,
    p,
    change,
    gating
  })

  test('the verdict metric is not adjusted; a diagnostic below the level shows its direction', () => {
    const out = diagnose(
      [row('path', 0.0001, 0.05, true), row('r1:proc', 0.001, 0.2), row('r2:proc', 0.004, -0.01)],
      0.05
    )
    expect(out.map(m => [m.adjustedP, m.evidence])).toEqual([
      [null, null],
      [0.002, 'up'],
      [0.004, 'down']
    ])
  })

  test('the same p is evidence alone but not among many diagnostics', () => {
    const one = diagnose([row('r1:proc', 0.02, 0.1)], 0.05)
    const many = diagnose(
      [row('r1:proc', 0.02, 0.1), ...['a', 'b', 'c'].map(m => row(m, 0.5, 0.01))],
      0.05
    )
    expect(one[0].evidence).toBe('up')
    expect(many[0].evidence).toBeNull()
  })
})

describe('on identical copies, diagnostics keep their error rate', () => {
  /**
   * Paired cases whose two sides are drawn alike: `path` is the verdict metric, its hops, the
   * services' times, the client's transfer and `latency` the diagnostics, correlated as in GNES
   * (`path` is their sum, `latency` adds the client).
   */
  function flagged(seed: number, trials: number, level: number) {
    const draw = seeded(seed)
    const metrics = ['path', 'latency', 'c->f:send', ...Object.keys(PARTS)]
    let raw = 0
    let adjusted = 0
    for (let t = 0; t < trials; t++) {
      const p = pairs(draw, 6, 20)
      // As compareCase does: the verdict metric's outlier rule picks the pairs every metric leaves out.
      const judge = (m: string, options: object) =>
        pairedMetric(
          m,
          p.base.map(r => r[m]),
          p.head.map(r => r[m]),
          0.025,
          {
            alpha: level,
            ...options
          }
        )
      const gate = judge('path', { gating: true })
      const judged = metrics.map(m => (m === 'path' ? gate : judge(m, { setAside: gate.setAside })))
      if (judged.some(m => !m.gating && m.p < level)) raw++
      if (diagnose(judged, level).some(m => m.evidence !== null)) adjusted++
    }
    return { raw: raw / trials, adjusted: adjusted / trials }
  }

  test('the share of cases with any diagnostic shown is at most α, where unadjusted tests exceed it', () => {
    const alpha = 0.05
    const trials = 4000
    const { raw, adjusted } = flagged(42, trials, alpha)
    // A share counted over trials is itself drawn: at most α up to three of its standard errors
    // (Holm keeps the rate at about α here, 0.050–0.052 over 4,000 trials for either estimator).
    expect(adjusted).toBeLessThanOrEqual(alpha + 3 * Math.sqrt((alpha * (1 - alpha)) / trials))
    expect(raw).toBeGreaterThan(2 * alpha)
  })
})
