import { ThresholdsSchema } from '../src/config/thresholds'
import { evaluateThresholds } from '../src/judge/thresholds'
import { thresholdsMarkdown } from '../src/report/threshold-text'
import { compareResult } from '../src/judge/compare'
import { renderComparisonMarkdown } from '../src/report/markdown'
import { escapeMarkdown } from '../src/text/escape'
import { makeEntry, makeResult, makeRuns, rng } from './fixtures/report/samples'

const r = rng(5)
const shape = { runs: 3, requests: 20, base: 0.1, runSd: 0.01, requestSd: 0.05, ar: 0.5, scale: 1 }
const metrics = (scale: number) => ({
  roundtrip: makeRuns(r, { ...shape, scale }),
  'f:send': makeRuns(r, { ...shape, base: 0.002 }),
  'f->r1:send': makeRuns(r, { ...shape, base: 0.0004, scale }),
  'r1:proc': makeRuns(r, { ...shape, base: 0.00001 })
})
const result = makeResult([
  { id: '1', name: 'non-blocking', metrics: metrics(1.3) },
  { id: '2', name: 'blocking', metrics: metrics(1) },
  { id: '3', name: 'parallel', metrics: metrics(1) }
])
const history = [
  makeEntry(
    { id: '1', name: 'non-blocking', metrics: metrics(1) },
    { message: 'Fix `x` | <script>alert(1)</script> @team\nsecond line' }
  ),
  makeEntry(
    { id: '2', name: 'blocking', metrics: metrics(1) },
    { noSamples: true, ref: 'refs/heads/feat/[x](javascript:alert(1))' }
  )
]
const comparison = compareResult(result, history, {
  threshold: 0.1,
  baseRef: null,
  mergeBaseSha: null
})
const md = renderComparisonMarkdown(comparison, {
  dashboardUrl: 'https://acme.github.io/search/',
  repositoryUrl: 'https://github.com/acme/search',
  methodUrl: 'javascript:alert(1)'
})
const lines = md.split('\n')

describe('renderComparisonMarkdown', () => {
  test('starts with a headline that counts verdicts (the action adds its comment marker)', () => {
    // Case 2's baseline has no samples: only the threshold could call it, and −4.7 % is below it.
    expect(lines[0]).toBe(
      '### GNES latency: 🔴 regression in 1 case, 🟡 inconclusive in 1 case (1 diagnostic moved)'
    )
    expect(md).toContain(
      'Each case’s verdict metric (here `roundtrip`) decides the `regression` and `verdict` outputs'
    )
  })

  test('main table: headline metrics of every compared case, plus anything flagged', () => {
    const main = md.slice(0, md.indexOf('<details>'))
    expect(main).toMatch(
      /\| 1 non-blocking · burst \| `roundtrip` \| .* \| \+3\d% \| .* \| 🔴 regression \|/
    )
    expect(main).toContain('| 1 non-blocking · burst | `f->r1:send` |')
    expect(main).not.toContain('`r1:proc`')
    expect(main).toMatch(
      /\| 2 blocking · burst \| `roundtrip` .* 🟡 inconclusive \(threshold only, untested\) \|/
    )
    expect(main).toContain('no test (the baseline has no per-request samples)')
  })

  test('diagnostics show Holm-adjusted evidence, never a verdict colour, and the legend says so', () => {
    const rows = md
      .split('\n')
      .filter(l => /^\| \d .* \| `[^`]+` \| /.test(l) && !l.includes('`roundtrip`'))
    expect(rows.length).toBeGreaterThan(0)
    for (const row of rows) {
      expect(row).not.toMatch(/🔴|🟢|🟡|⚪/)
      expect(row).toMatch(/\| (↑ \+|↓ −)?[^|]*adjusted p (< 0\.001|[01]\.\d{3}) \||\| no test \|/)
    }
    // The moved hop of case 1 is shown as evidence in the main table.
    expect(md.slice(0, md.indexOf('<details>'))).toMatch(
      /\| `f->r1:send` \| .* \| ↑ \+\d+%, adjusted p (< 0\.001|0\.0\d\d) \|/
    )
    expect(md).toContain(
      'Every other row is a diagnostic: its p-value is Holm-adjusted across its case’s diagnostics'
    )
    expect(md).toContain('any ↑ or ↓ in a case within α = 0.05')
  })

  test('per-hop and per-service metrics are folded per case', () => {
    const details = md.slice(md.indexOf('<details>'), md.lastIndexOf('</details>'))
    expect(details).toContain(
      '<summary>Per-hop and per-service details: case 1 non-blocking · burst</summary>'
    )
    expect(details).toContain('`r1:proc`')
    expect(details).not.toContain('`roundtrip`')
  })

  test('links the baseline commit and the dashboard; drops non-http links', () => {
    expect(md).toContain(
      '[`abcdef0`](https://github.com/acme/search/commit/abcdef0123456789abcdef0123456789abcdef01)'
    )
    expect(md).toContain('[Dashboard](https://acme.github.io/search/)')
    expect(md).not.toContain('](javascript')
    const odd = renderComparisonMarkdown(comparison, { dashboardUrl: 'https://x.io/a (b)/' })
    expect(odd).toContain('[Dashboard](https://x.io/a%20%28b%29/)')
  })

  test('says which case has no baseline and why', () => {
    expect(md).toContain(
      '| 3 parallel · burst | — | — | — | **no baseline**: no history entry of case 3 |'
    )
  })

  test('escapes commit messages and branch names from the pull request', () => {
    expect(md).toContain('Fix &#96;x&#96; \\| &lt;script&gt;alert(1)&lt;/script&gt; @\u2060team |')
    expect(md).not.toContain('second line')
    expect(md).toContain('| feat/\\[x\\]\\(javascript:alert(1)) |')
    expect(escapeMarkdown('a|b\nc')).toBe('a\\|b c')
  })

  test('says when the CPUs were held awake, and compares only with entries that were too', () => {
    expect(lines[2]).not.toContain('CPUs held awake')
    const awake = { ...result, meta: { ...result.meta, cpusAwake: true } }
    const held = compareResult(awake, history, {
      threshold: 0.1,
      baseRef: null,
      mergeBaseSha: null
    })
    const text = renderComparisonMarkdown(held)
    expect(text.split('\n')[2]).toMatch(/engine `local` · CPUs held awake · /)
    expect(held.cases[0].baseline.reason).toMatch(/CPUs held awake/)
    const heldHistory = history.map(e => ({ ...e, cpusAwake: true }))
    expect(
      compareResult(awake, heldHistory, { threshold: 0.1, baseRef: null, mergeBaseSha: null })
        .cases[0].baseline.entry
    ).not.toBeNull()
  })

  test('no baseline at all', () => {
    const none = compareResult(result, [], { threshold: 0.1, baseRef: 'main', mergeBaseSha: null })
    const text = renderComparisonMarkdown(none)
    expect(text.split('\n')[0]).toBe('### GNES latency: no baseline to compare with')
    expect(none.regression).toBe(false)
    expect(text).not.toContain('<details>')
  })
})

describe('thresholds in the history-mode report', () => {
  test('after the answers, before the tables, with the figure beside the bound', () => {
    const ts = ThresholdsSchema.parse({ roundtrip: ['avg<1s', 'p(99)<1ms'] })
    const section = thresholdsMarkdown(
      evaluateThresholds(result, () => ts),
      null
    )
    const text = renderComparisonMarkdown(comparison, {}, section)
    const at = text.indexOf('### Thresholds')
    // The line before it is the last answer.
    expect(text.slice(0, at).trimEnd().split('\n').pop()).toMatch(/^- /)
    expect(at).toBeLessThan(text.indexOf('| Case |'))
    expect(text).toContain('❌ 3 of 6 thresholds broken on the head.')
    expect(text).toMatch(/\| `1` \(burst\) \| `roundtrip` \| `avg<1s` \| [\d.]+ ms ✅ \|/)
    expect(text).toMatch(/\| `1` \(burst\) \| `roundtrip` \| `p\(99\)<1ms` \| [\d.]+ ms ❌ \|/)
    expect(md).not.toContain('### Thresholds')
  })
})
