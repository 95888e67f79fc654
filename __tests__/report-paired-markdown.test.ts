import { COMMENT_MARKER } from '../src/report/markdown'
import { comparePaired } from '../src/report/paired'
import { renderPairedMarkdown } from '../src/report/paired-markdown'
import { abbaOrder } from '../src/client/interleave'
import { makeResult, makeRuns, rng } from './fixtures/report/samples'

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
    expect(
      md.startsWith(
        `${COMMENT_MARKER}\n### GNES latency, paired on this runner: 🔴 regression in 1 case`
      )
    ).toBe(true)
    expect(md).toContain('**head** GNES 0\\.0\\.47')
    expect(md).toContain('**base** GNES 0\\.0\\.46')
    expect(md).toContain('paired on this runner')
    expect(md).toContain('4 pairs of runs in the order `ABBAABBA` (A = base, B = head)')
    expect(md).toContain('a change of at least 2.5%')
  })

  test('gives the change, its interval and every pair’s ratio', () => {
    const m = comparison.cases[0].metrics[0]
    const row = md.split('\n').find(l => l.includes('`roundtrip`') && l.includes('regression'))!
    expect(row).toContain(' … ')
    expect(row).toContain('| 4 |')
    const ratios = md
      .split('\n')
      .find(l => l.includes('`roundtrip`') && l.includes(m.ratios[0].toFixed(3)))!
    expect(ratios.split('|').filter(c => /^\s*\d\.\d{3}\s*$/.test(c))).toHaveLength(4)
    expect(md).toContain('Each pair’s ratio of run medians, head ÷ base')
    expect(md).toContain('Student’s paired t-test on the log ratios')
    expect(md).toContain('Nothing of the base is recorded in the history')
  })

  test('escapes what topology files and case names bring, and drops unsafe links', () => {
    expect(md).not.toContain('<img')
    expect(md).toContain('&lt;img src=x onerror=alert\\(1\\)&gt; \\| name')
    expect(md).not.toContain('javascript:')
    expect(md).toContain('[method](https://example.org/docs/regression.md#paired-mode)')
    expect(md).toContain('topology topologies/&#96;head&#96;\\.yml')
    expect(md).toContain('topology `topologies/base.yml`')
  })

  test('folds the per-hop metrics per case', () => {
    expect(md).toContain('<summary>Per-hop and per-service details: case 1')
    expect(md.split('<details>')[1]).toContain('`f->r1:send`')
  })
})
