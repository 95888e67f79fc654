import { orderText } from '../client/interleave'
import { escapeMarkdown, inlineCode, markdownLink as link, safeUrl } from '../text/escape'
import {
  COMMENT_MARKER,
  detailsBlock,
  fmtChange,
  fmtSeconds,
  reportTitle,
  shortSha,
  type ReportLinks
} from './markdown'
import type { PairedCase, PairedComparison, PairedMetric } from './paired'

const VERDICT_TEXT = {
  regression: '🔴 regression',
  improvement: '🟢 improvement',
  'no-change': '⚪ no significant change'
} as const

function verdictCell(m: PairedMetric, alpha: number): string {
  // Significant but smaller than the minimum effect: say so, it is not "no change".
  if (m.verdict === 'no-change' && m.p < alpha) return '⚪ below threshold'
  return VERDICT_TEXT[m.verdict]
}

const caseLabel = (c: PairedCase): string =>
  `${escapeMarkdown(c.caseId)} ${escapeMarkdown(c.caseName)} · ${escapeMarkdown(c.profile)}`.trim()

const TABLE_HEAD = [
  '| Case | Metric | Base | Head | Change | CI of change | p | Pairs | Verdict |',
  '|---|---|---:|---:|---:|---:|---:|---:|---|'
]

function metricRow(c: PairedCase, m: PairedMetric, alpha: number): string {
  const cells = [
    caseLabel(c),
    inlineCode(m.metric),
    fmtSeconds(m.base),
    fmtSeconds(m.head),
    fmtChange(m.change),
    `${fmtChange(m.ci[0])} … ${fmtChange(m.ci[1])}`,
    m.p < 0.001 ? '< 0.001' : m.p.toFixed(3),
    String(m.ratios.length),
    verdictCell(m, alpha)
  ]
  return `| ${cells.join(' | ')} |`
}

function headline(c: PairedComparison): string {
  const gating = c.cases.flatMap(k => k.metrics.filter(m => m.gating))
  const count = (v: PairedMetric['verdict']) => gating.filter(m => m.verdict === v).length
  const plural = (n: number) => `${n} case${n === 1 ? '' : 's'}`
  const [reg, imp] = [count('regression'), count('improvement')]
  const parts = [
    reg ? `🔴 regression in ${plural(reg)}` : null,
    imp ? `🟢 improvement in ${plural(imp)}` : null
  ].filter(Boolean)
  return `### ${reportTitle(c.side.head?.gnesVersion ?? null)}, paired on this runner: ${parts.length ? parts.join(', ') : '⚪ no significant change'}`
}

/** What a side is: its GNES (and build commit when known), and its topology files when they differ. */
function sideText(c: PairedComparison, side: 'base' | 'head'): string {
  const s = c.side[side]
  // A base from another commit is that commit's copy of the same files: the commit says it.
  const files = c.baseCommit
    ? []
    : c.cases.filter(k => k.files.base !== k.files.head).map(k => k.files[side])
  const own = side === 'base' ? c.baseCommit : c.commit
  const commit = !c.baseCommit ? '' : own ? `commit ${shortSha(own)}` : 'the workspace'
  const topo = [commit, files.length ? `topology ${files.map(f => inlineCode(f)).join(', ')}` : '']
    .filter(Boolean)
    .join(' · ')
  if (!s) return topo || 'the same topology'
  const tag = s.gnesTag === s.gnesVersion ? '' : ` (${escapeMarkdown(s.gnesTag)})`
  const vcs = s.gnesVcs ? ` ${shortSha(s.gnesVcs)}` : ''
  return `GNES ${escapeMarkdown(s.gnesVersion)}${tag}${vcs}${topo ? ` · ${topo}` : ''}`
}

/**
 * The report of a paired run (comment and job summary): the mode, what each side is, the block
 * order, headline verdicts, each pair's ratio, and the per-hop metrics folded per case.
 */
export function renderPairedMarkdown(c: PairedComparison, links: ReportLinks = {}): string {
  const { load } = c
  const commit = c.commit ? `${shortSha(c.commit)} · ` : ''
  const lines = [
    COMMENT_MARKER,
    headline(c),
    '',
    `${commit}**head** ${sideText(c, 'head')} vs **base** ${sideText(c, 'base')}, both measured ` +
      `in this job, paired on this runner · engine \`${c.engine}\` · ` +
      `${orderText(c.order, c.interleave)} (A = base, B = head) · ` +
      (c.side.head ? `requests of ${load.batchSize} docs × ${load.docBytes} B · ` : '') +
      `verdict needs p < ${c.alpha} and a change of at least ` +
      `${fmtChange(c.threshold).slice(1)}`,
    ''
  ]
  const main = c.cases.flatMap(k =>
    k.metrics.filter(m => m.gating || m.verdict !== 'no-change').map(m => metricRow(k, m, c.alpha))
  )
  if (main.length) {
    lines.push(
      ...TABLE_HEAD,
      ...main,
      '',
      'Only each case’s headline metric (`latency` at minimal load, `roundtrip` for a burst) ' +
        'decides the `regression` output and `fail-on-regression`.',
      ''
    )
  } else {
    lines.push('No case had a metric measured on both sides.', '')
  }
  const gating = c.cases.flatMap(k => k.metrics.filter(m => m.gating).map(m => ({ k, m })))
  if (gating.length) {
    const n = Math.max(...gating.map(({ m }) => m.ratios.length))
    lines.push(
      'Each pair’s ratio of run medians, head ÷ base:',
      '',
      `| Case | Metric | ${Array.from({ length: n }, (_, i) => `Pair ${i + 1}`).join(' | ')} |`,
      `|---|---|${'---:|'.repeat(n)}`,
      ...gating.map(
        ({ k, m }) =>
          `| ${caseLabel(k)} | ${inlineCode(m.metric)} | ${m.ratios.map(r => r.toFixed(3)).join(' | ')} |`
      ),
      ''
    )
  }
  for (const k of c.cases) {
    const rest = k.metrics.filter(m => !m.gating)
    if (!rest.length) continue
    lines.push(
      ...detailsBlock(caseLabel(k), [...TABLE_HEAD, ...rest.map(m => metricRow(k, m, c.alpha))])
    )
  }
  const method = safeUrl(links.methodUrl)
  const dashboard = safeUrl(links.dashboardUrl)
  lines.push(
    [
      `Values: per-run medians of per-request samples; a pair is a base run and the head run ` +
        `beside it; change = geometric mean of the pairs’ ratios − 1, with its ` +
        `${Math.round((1 - c.alpha) * 100)}% interval from Student’s paired t-test on the log ` +
        `ratios. Nothing of the base is recorded in the history` +
        (method ? ` (${link('method', method)}).` : '.'),
      dashboard ? link('Dashboard', dashboard) : null
    ]
      .filter(Boolean)
      .join(' · ')
  )
  return lines.join('\n') + '\n'
}
