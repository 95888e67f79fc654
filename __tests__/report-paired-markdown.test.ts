import { ThresholdsSchema } from '../src/config/thresholds'
import { evaluateThresholds } from '../src/judge/thresholds'
import { thresholdsMarkdown } from '../src/report/threshold-text'
import { comparePaired } from '../src/judge/paired'
import { sequentialLevels, type Sequence } from '../src/judge/sequential'
import { renderPairedMarkdown } from '../src/report/paired-markdown'
import { abbaOrder } from '../src/client/interleave'
import { PairedChangeSchema } from '../src/history/schema'
import { pairedChanges } from '../src/pipeline/record'
import { makeResult, makeRuns, rng } from './fixtures/report/samples'
import { CHANGE, PLUS_MINUS, re } from './helpers/figures'

const r = rng(3)
const shape = { runs: 4, requests: 20, base: 0.1, runSd: 0.004, requestSd: 0.02, ar: 0.3 }
function side(scale: number, gnes: string, file: string) {
  const result = makeResult([
    {
      id: '1',
      name: 'evil <img src=x onerror=alert(1)> | name',
      metrics: {
        roundtrip: makeRuns(r, { ...shape, scale }),
        'f->r1:send': makeRuns(r, { ...shape, base: 0.001, scale: 1 })
      }
    }
  ])
  return {
    ...result,
    meta: { ...result.meta, gnes: { ...result.meta.gnes!, version: gnes, tag: gnes } },
    cases: result.cases.map(c => ({ ...c, topologyFile: file }))
  }
}
const run = {
  base: side(1, '0.0.46', 'topologies/base.yml'),
  head: side(1.2, '0.0.47', 'topologies/`head`.yml'),
  order: abbaOrder(4),
  interleave: 'blocks' as const
}
const comparison = comparePaired(run, { threshold: 0.025 })
const md = renderPairedMarkdown(comparison, {
  methodUrl: 'https://example.org/docs/regression.md#paired-mode',
  dashboardUrl: 'javascript:alert(1)'
})

describe('the paired report', () => {
  test('says the mode, what each side is and the order', () => {
    expect(md.startsWith('### GNES latency, paired on this runner: 🔴 regression in 1 case')).toBe(
      true
    )
    expect(md).toContain('**head** GNES 0.0.47')
    expect(md).toContain('**base** GNES 0.0.46')
    expect(md).toContain('paired on this runner')
    expect(md).toContain('pairs of runs in the order `ABBAABBA…` (A = base, B = head)')
    expect(md).toContain('threshold ±2.5%')
  })

  test('gives the change, its interval and every pair’s ratio', () => {
    const m = comparison.cases[0].metrics[0]
    const row = md
      .split('\n')
      .find(l => l.startsWith('|') && l.includes('`roundtrip`') && l.includes('regression'))!
    expect(row).toContain(' … ')
    expect(row).toContain('| 4 |')
    const ratios = md
      .split('\n')
      .find(l => l.includes('`roundtrip`') && l.includes(m.ratios[0].toFixed(3)))!
    expect(ratios.split('|').filter(c => /^\s*\d\.\d{3}\s*$/.test(c))).toHaveLength(4)
    expect(md).toContain(
      'Each pair’s ratio of run figures (20 %-trimmed mean requests), head ÷ base'
    )
    expect(md).toContain('Student’s paired t-test on the log ratios')
    expect(md).toContain('Nothing of the base is recorded in the history')
  })

  test('escapes what topology files and case names bring, and drops unsafe links', () => {
    expect(md).not.toContain('<img')
    expect(md).toContain('&lt;img src=x onerror=alert(1)&gt; \\| name')
    expect(md).not.toContain('javascript:')
    expect(md).toContain('[method](https://example.org/docs/regression.md#paired-mode)')
    expect(md).toContain('topology topologies/&#96;head&#96;.yml')
    expect(md).toContain('topology `topologies/base.yml`')
  })

  test('folds the per-hop metrics per case', () => {
    expect(md).toContain('<summary>Per-hop and per-service details: case 1')
    expect(md.split('<details>')[1]).toContain('`f->r1:send`')
  })
})

describe('diagnostics in the paired report', () => {
  test('only the verdict metric carries a verdict colour; the others show adjusted evidence', () => {
    const rows = md.split('\n').filter(l => l.includes('| `f->r1:send` |'))
    expect(rows.length).toBeGreaterThan(0)
    for (const row of rows) {
      expect(row).not.toMatch(/🔴|🟢|🟡|⚪/)
      expect(row).toMatch(/adjusted p (< 0\.001|[01]\.\d{3}) \|$/)
    }
    expect(md).toMatch(/\| `roundtrip` \| .* \| 🔴 regression \|/)
    expect(md).toContain(
      'Every other row is a diagnostic: its p-value is Holm-adjusted across its case’s diagnostics'
    )
    // One case of one look of 4 pairs: its diagnostics hold the whole level, read at that look.
    const at = Number(comparison.cases[0].diagnosticLevel.toPrecision(2))
    expect(comparison.cases[0].diagnosticLevel).toBe(Math.min(comparison.cases[0].level, 0.05))
    expect(md).toContain(
      `any ↑ or ↓ in a case within 5 % over every look it may stop at; ↑ or ↓ marks an adjusted p below ${at}, each look’s share of it`
    )
  })
})

describe('what the paired report says when it cannot tell, and which hop moved', () => {
  /** Case 1 at minimal load, judged by `path`: router 2 made `slower` seconds slower. */
  function minimal(scale: number, slower: number, seed: number, clientSlower = 0) {
    const q = rng(seed)
    const at = (base: number) => makeRuns(q, { ...shape, runs: 6, base, scale: 1 })
    const r2 = at(0.0004).map(run => run.map(x => x + slower))
    const other = at(0.012)
    const client = at(0.008).map(run => run.map(x => x + clientSlower))
    const result = makeResult([
      {
        id: '1',
        metrics: {
          latency: makeRuns(q, { ...shape, runs: 6, base: 0.06, runSd: 0.05, scale: 1 }),
          path: other.map((run, k) => run.map((x, j) => (x + r2[k][j]) * scale)),
          'f->r1:send': other,
          'r2:proc': r2,
          'c->f:send': client
        }
      }
    ])
    return {
      ...result,
      cases: result.cases.map(c => ({
        ...c,
        profile: { kind: 'minimal' as const, rate: 5 },
        headline: 'latency'
      }))
    }
  }
  const sequence = { looks: [6, 9, 14, 21, 30], pairs: 30, stop: 'budget' as const, seconds: 540 }

  test('a regression splits its change into hops that add up, each with its share and interval', () => {
    const c = comparePaired(
      {
        base: minimal(1, 0, 5),
        head: minimal(1, 0.001, 6),
        order: abbaOrder(6),
        interleave: 'requests'
      },
      { threshold: 0.025 }
    )
    const text = renderPairedMarkdown(c)
    expect(c.verdicts).toEqual([
      { case: '1', profile: 'minimal@5', metric: 'path', verdict: 'regression' }
    ])
    expect(text).toMatch(
      /🔴 regression, `path` \+\d+(\.\d)?% \(\+1\.\d\d ms\), interval .*; over each run’s requests between the 25th and 75th percentile of `path`, it moved \+1\.\d\d ms \(interval \+\d\.\d\d ms … \+\d\.\d\d ms\): `r2:proc` \(router 2's own time\) \+1\.00 ms \(\d+ %, interval \d+ % … \d+ %\)/
    )
    // The split's figures are the judgement's: the parts and the residual add up to its change.
    const shares = c.cases[0].shares!
    const parts = shares.parts.reduce((a, p) => a + p.delta, 0) + shares.residual.delta
    expect(parts).toBeCloseTo(shares.total.delta, 12)
    const r2 = shares.parts.find(p => p.metric === 'r2:proc')!
    expect(r2.ci[0]).toBeLessThanOrEqual(0.001)
    expect(r2.ci[1]).toBeGreaterThanOrEqual(0.001)
  })

  test('a hop outside the verdict metric does not explain it: the client transfer is not in `path`', () => {
    const c = comparePaired(
      {
        base: minimal(1, 0, 5),
        head: minimal(1, 0.001, 6, 0.0006),
        order: abbaOrder(6),
        interleave: 'requests'
      },
      { threshold: 0.025 }
    )
    const text = renderPairedMarkdown(c)
    // The client's transfer moved, and its row shows it as evidence, without a verdict colour.
    expect(text).toMatch(/\| `c->f:send` \| .* \| ↑ \+\d+(\.\d)?%, adjusted p < 0\.001 \|/)
    expect(text).not.toMatch(/`c->f:send`.*🔴/)
    expect(text).toMatch(/: `r2:proc` \(router 2's own time\) \+1\.00 ms \(\d+ %/)
    expect(text).not.toMatch(/`c->f:send` \(client → frontend\) \+/)
  })

  test('an inconclusive headline says so, what it could have seen, why it stopped, and the hop that did move', () => {
    // Path as noisy as latency here: the head's 1 ms is lost in ±5 % per run.
    const noisy = (slower: number, seed: number) => {
      const r = minimal(1, slower, seed)
      const q = rng(seed + 100)
      const spread = makeRuns(q, { ...shape, runs: 6, base: 1, runSd: 0.3, scale: 1 })
      return {
        ...r,
        cases: r.cases.map(c => ({
          ...c,
          runs: c.runs.map((run, k) => ({
            ...run,
            samples: {
              ...run.samples,
              path: run.samples.path.map(x => x * spread[Math.max(k - 1, 0)][0])
            }
          }))
        }))
      }
    }
    const c = comparePaired(
      {
        base: noisy(0, 7),
        head: noisy(0.001, 8),
        order: abbaOrder(6),
        interleave: 'requests',
        sequences: [sequence]
      },
      { threshold: 0.025 }
    )
    const text = renderPairedMarkdown(c)
    expect(c.verdicts[0].verdict).toBe('inconclusive')
    expect(text).toContain('### GNES latency, paired on this runner: 🟡 inconclusive in 1 case')
    expect(text).toMatch(/so these 30 pairs cannot tell a change from none\./)
    expect(text).toMatch(
      re`They would find a change of ${PLUS_MINUS} with 80 % power; about \d+ pairs would tell\.`
    )
    expect(text).toMatch(
      /The hops did move: `r2:proc` \(router 2's own time\) \+(99\d µs|1\.0\d ms)\./
    )
    expect(text).toContain(
      '30 pairs in 9 min 00 s, looked at after 6, 9, 14, 21, 30 of up to 30 (stopped by the time budget (its share of paired-budget-minutes))'
    )
    // A sequence without its split (measured elsewhere, or before) says no more than its time.
    expect(text).not.toContain('of its 9 min 00 s')
    expect(text).toMatch(
      /each interval at 9\d\.\d % so that all 5 planned looks hold together at 95 %/
    )
  })

  test("the line on a case's pairs ends with where its time went, when that was measured", () => {
    const split = { startSec: 24.4, warmupSec: 70.2, measureSec: 190, teardownSec: 27.5 }
    const text = (s: Sequence) =>
      renderPairedMarkdown(
        comparePaired(
          {
            base: minimal(1, 0, 5),
            head: minimal(1, 0.001, 6),
            order: abbaOrder(6),
            interleave: 'requests',
            sequences: [s]
          },
          { threshold: 0.025 }
        )
      )
    const spent = 'of its 5 min 12 s, start 24 s, warm-up 70 s, measuring 3 min 10 s, teardown 28 s'
    expect(text({ ...sequence, seconds: 312, split })).toMatch(
      new RegExp(
        `^- 1 case 1 · minimal@\u2060?5: 30 pairs in 5 min 12 s, looked at after .* hold together at 95 %; ${spent}\\.$`,
        'm'
      )
    )
    expect(text({ looks: [6], pairs: 6, stop: 'max-pairs', seconds: 312, split })).toMatch(
      new RegExp(`: 6 pairs in 5 min 12 s, one look; ${spent}\\.$`, 'm')
    )
    // No time measured: neither the time nor its split.
    const untimed = text({ ...sequence, seconds: null, split })
    expect(untimed).toMatch(/: 30 pairs, looked at after 6, 9, 14, 21, 30 of up to 30 /)
    expect(untimed).not.toContain('of its')
  })

  test('the comment states the error rate for all cases together: the level split over them', () => {
    const four = (r: ReturnType<typeof minimal>) => ({
      ...r,
      cases: ['1', '2', '3', '4'].map(id => ({ ...r.cases[0], id }))
    })
    const run = (cases: number) => {
      const pick = (r: ReturnType<typeof minimal>) => (cases === 1 ? r : four(r))
      return comparePaired(
        {
          base: pick(minimal(1, 0, 5)),
          head: pick(minimal(1, 0.001, 6)),
          order: abbaOrder(6),
          interleave: 'requests',
          sequences: Array.from({ length: cases }, () => sequence)
        },
        { threshold: 0.025 }
      )
    }
    const [alone, split] = [run(1), run(4)]
    expect(split.caseAlpha).toBe(0.0125)
    expect(split.cases[0].level).toBe(sequentialLevels(sequence.looks, 0.05, 4).test)
    expect(split.cases[0].level).toBeLessThan(alone.cases[0].level)
    expect(split.cases[0].diagnosticLevel).toBeLessThanOrEqual(0.0125 / 5)
    const text = renderPairedMarkdown(split)
    expect(text).toContain(
      'Error rate for all cases together: levels split over the 4 cases (1.25 % each, at every look), so their intervals hold together at 95 %, and cases that changed nothing make a false regression in at most 5 % of runs'
    )
    expect(text).toMatch(/so that all 5 planned looks hold together at 98\.75 %/)
    expect(text).toContain('within 1.25 % over every look it may stop at, 5 % for all its cases')
    expect(renderPairedMarkdown(alone)).toContain(
      'Error rate for all cases together: one case, at the whole level over every look, so its intervals hold together at 95 %'
    )
  })

  test('a canary reports the runner’s noise, and names a runner too noisy for the threshold', () => {
    const run = (aaSpread: number) => {
      // Both sides of the A/A run are one measurement, the head's moved by the runner's noise alone.
      const aa = (seed: number) => {
        const r = minimal(1, 0, 21)
        const q = rng(seed + 200)
        const noise = makeRuns(q, { ...shape, runs: 6, base: 1, runSd: aaSpread, scale: 1 })
        return {
          ...r.cases[0],
          runs: r.cases[0].runs.map((x, k) => ({
            ...x,
            samples: {
              ...x.samples,
              path: x.samples.path.map(v => v * noise[Math.max(k - 1, 0)][0])
            }
          }))
        }
      }
      return comparePaired(
        {
          base: minimal(1, 0, 5),
          head: minimal(1, 0.001, 6),
          order: abbaOrder(6),
          interleave: 'requests',
          canaries: [{ base: aa(21), head: aa(22) }]
        },
        { threshold: 0.025 }
      )
    }
    const quiet = run(0.001)
    expect(quiet.cases[0].canary).toMatchObject({ metric: 'path', gating: false })
    expect(renderPairedMarkdown(quiet)).toMatch(
      re`- 1 case 1 · minimal@\u2060?5: canary \(the base beside itself, 6 pairs\): \`path\` ${CHANGE}, interval .*: this runner can tell ±2\.5% apart \(identical sides spanned ${PLUS_MINUS}\)\.`
    )
    const loud = renderPairedMarkdown(run(0.3))
    expect(loud).toMatch(
      /- ⚠️ 1 case 1 · minimal@\u2060?5: canary .*: (this runner is too noisy for ±2\.5% at 6 pairs|identical sides were called a change)/
    )
    // The canary is never the verdict.
    expect(run(0.3).verdicts).toEqual(quiet.verdicts)
  })
})

describe('a pair set aside', () => {
  // Eight pairs of case 1; the head's third measured run stalled to 3× its median.
  const long = { ...shape, runs: 8 }
  const make = (scale: number, stall: number) => {
    const result = makeResult([
      { id: '1', name: 'case 1', metrics: { roundtrip: makeRuns(r, { ...long, scale }) } }
    ])
    let measured = 0
    const runs = result.cases[0].runs.map(x =>
      x.warmup || measured++ !== 2
        ? x
        : { ...x, samples: { roundtrip: x.samples.roundtrip.map(v => v * stall) } }
    )
    return { ...result, cases: [{ ...result.cases[0], runs }] }
  }
  const paired = comparePaired(
    { base: make(1, 1), head: make(1.1, 3), order: abbaOrder(8), interleave: 'blocks' as const },
    { threshold: 0.025 }
  )

  test('the comment names it, its ratio and the rule, in one line', () => {
    expect(paired.cases[0].setAside).toEqual([2])
    const lines = renderPairedMarkdown(paired)
      .split('\n')
      .filter(l => l.startsWith('- ') && l.includes('set aside'))
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/pair 3 \(×\d\.\d{3}\) set aside, `roundtrip` an outlier by Rosner’s/)
    expect(lines[0]).toContain('judged on the other 7 pairs')
    expect(paired.cases[0].metrics[0].verdict).toBe('regression')
  })

  test('the history entry keeps which pairs, their ratios and why', () => {
    const [change] = pairedChanges(paired).values()
    expect(change.setAside).toEqual({
      pairs: [3],
      ratios: [paired.cases[0].metrics[0].ratios[2]],
      rule: expect.stringContaining('generalized ESD')
    })
    expect(PairedChangeSchema.parse(change)).toEqual(change)
  })
})

describe('thresholds in the paired report', () => {
  test("after the answers, the head's figure and the base's beside it", () => {
    const ts = ThresholdsSchema.parse({ roundtrip: ['p(99)<1ms'] })
    const section = thresholdsMarkdown(
      evaluateThresholds(run.head, () => ts),
      evaluateThresholds(run.base, () => ts)
    )
    const text = renderPairedMarkdown(comparison, {}, null, section)
    const at = text.indexOf('### Thresholds')
    expect(at).toBeGreaterThan(text.indexOf('- Case'))
    expect(at).toBeLessThan(text.indexOf('| Case |'))
    expect(text).toMatch(
      /\| `1` \(burst\) \| `roundtrip` \| `p\(99\)<1ms` \| [\d.]+ ms ❌ \| [\d.]+ ms ❌ \|/
    )
    expect(renderPairedMarkdown(comparison)).not.toContain('### Thresholds')
  })
})
