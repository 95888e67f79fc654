import { orderText } from '../client/interleave'
import { escapeMarkdown, inlineCode, markdownLink as link, safeUrl } from '../text/escape'
import { answerLegend, answerLine, headlineAnswer, verdictCell } from './answer-text'
import { diagnosticsLegend, evidenceCell } from './evidence-text'
import { fmtChange, fmtInterval, fmtPercent, fmtPlusMinus } from '../text/percent'
import { fmtP } from '../text/p-value'
import { fmtDuration } from '../text/duration'
import { fmtFigure } from './metric-words'
import { detailsBlock, reportTitle, shortSha, type ReportLinks } from './markdown'
import type { PairedCase, PairedComparison, PairedMetric } from '../judge/paired'
import { SET_ASIDE_RULE } from '../judge/set-aside'
import type { ComparedCommits } from '../result/compared-commits'
import { count } from '../text/count'
import { comparedLine } from './compared-text'
import { traceNote } from './trace-text'
import { timeSplitText } from './time-split-text'

const pairsOf = (k: PairedCase): number => k.sequence.pairs

const caseLabel = (c: PairedCase): string =>
  `${escapeMarkdown(c.caseId)} ${escapeMarkdown(c.caseName)} · ${escapeMarkdown(c.profile)}`.trim()

const TABLE_HEAD = [
  '| Case | Metric | Base | Head | Change | CI of change | p | Pairs | Verdict or evidence |',
  '|---|---|---:|---:|---:|---:|---:|---:|---|'
]

/** The interval an answer was read from: "no change" from the equivalence interval (TOST). */
const shown = <M extends PairedMetric>(m: M): M =>
  m.verdict === 'no-change' ? { ...m, ci: m.equivalence } : m

function metricRow(c: PairedCase, m: PairedCase['metrics'][number]): string {
  const cells = [
    caseLabel(c),
    inlineCode(m.metric),
    fmtFigure(m.metric, m.base),
    fmtFigure(m.metric, m.head),
    fmtChange(m.change),
    fmtInterval(shown(m).ci),
    fmtP(m.p),
    String(m.ratios.length),
    m.gating ? verdictCell(m) : evidenceCell(m)
  ]
  return `| ${cells.join(' | ')} |`
}

function headline(c: PairedComparison): string {
  const gating = c.cases.flatMap(k => k.metrics.filter(m => m.gating))
  const title = `${reportTitle(c.side.head?.gnesVersion ?? null)}, paired on this runner`
  if (!gating.length) return `### ${title}`
  return `### ${title}: ${headlineAnswer(
    gating.map(m => m.verdict),
    c.threshold
  )}`
}

const STOP_TEXT = {
  decisive: 'stopped when the answer was decisive',
  'max-pairs': 'stopped at max-pairs',
  budget: 'stopped by the time budget (its share of paired-budget-minutes)'
} as const

/**
 * The runner's noise from the canary (the base beside itself): what identical sides measured, and
 * whether this runner can tell the threshold apart at all. Null without a canary.
 */
function canaryLine(k: PairedCase, threshold: number): string | null {
  const m = k.canary
  if (!m) return null
  const aa =
    `canary (the base beside itself, ${m.ratios.length} pairs): ${inlineCode(m.metric)} ` +
    `${fmtChange(m.change)}, interval ${fmtInterval(m.ci)}`
  if (m.verdict === 'regression' || m.verdict === 'improvement') {
    return `⚠️ ${caseLabel(k)}: ${aa}: identical sides were called a change, so this runner's answers cannot be trusted.`
  }
  if (m.detectable > threshold) {
    return `⚠️ ${caseLabel(k)}: ${aa}: this runner is too noisy for ${fmtPlusMinus(threshold)} at ${m.ratios.length} pairs (identical sides spanned ${fmtPlusMinus(m.detectable)}).`
  }
  return `${caseLabel(k)}: ${aa}: this runner can tell ${fmtPlusMinus(threshold)} apart (identical sides spanned ${fmtPlusMinus(m.detectable)}).`
}

/**
 * The diagnostics' legend: the level they hold over every look a case may stop at (for all cases,
 * as many shares), and the level each look is read at: one for every case, or each case's own.
 */
function diagnosticsWords(c: PairedComparison): string {
  const levels = [...new Set(c.cases.map(k => k.diagnosticLevel))]
  const all = c.cases.length > 1 ? `, ${levelPct(c.alpha)} for all its cases` : ''
  return diagnosticsLegend(
    `${levelPct(c.caseAlpha)} over every look it may stop at${all}`,
    levels.length === 1
      ? `${Number(levels[0].toPrecision(2))}, each look’s share of it`
      : 'each case’s share of it per look'
  )
}

/** Which pairs a case left out of its test, and why, in one line; null when it kept them all. */
function setAsideLine(k: PairedCase): string | null {
  const gate = k.metrics.find(m => m.gating)
  if (!gate || !k.setAside.length) return null
  const pairs = k.setAside.map(i => `${i + 1} (×${gate.ratios[i].toFixed(3)})`).join(', ')
  return (
    `${caseLabel(k)}: ${k.setAside.length === 1 ? 'pair' : 'pairs'} ${pairs} set aside, ` +
    `${inlineCode(gate.metric)} an outlier by ${SET_ASIDE_RULE}; ` +
    `every metric of the case is judged on the other ${count(gate.ratios.length - k.setAside.length, 'pair')}.`
  )
}

/** A case's answer in a sentence, from the intervals its answers were read from. */
const caseAnswer = (k: PairedCase, threshold: number): string | null =>
  answerLine(
    caseLabel(k),
    k.metrics.map(shown),
    threshold,
    { n: pairsOf(k), word: 'pair' },
    k.shares
  )

/** A level in percent, as short as it is exact to two decimals: `1.25 %`, `5 %`. */
const levelPct = (x: number): string => fmtPercent(x, { decimals: 2, trim: true, spaced: true })

/** A level in whole per cents, as the method's closing sentence rounds it: `95 %`. */
const WHOLE = { decimals: 'round', trim: true, spaced: true } as const

/**
 * The answer's error rate for all cases together, and how it is held: each case's intervals at
 * its share of the level over every look (src/judge/sequential.ts, `sequentialLevels`).
 */
function familyLine(c: PairedComparison): string {
  const n = c.cases.length
  const held =
    n > 1
      ? `levels split over the ${n} cases (${levelPct(c.caseAlpha)} each, at every look), so their`
      : 'one case, at the whole level over every look, so its'
  return (
    `Error rate for all cases together: ${held} intervals hold together at ` +
    `${levelPct(1 - c.alpha)}, and cases that changed nothing make a false regression in at most ` +
    `${levelPct(c.alpha)} of runs; “no change” overall needs every case’s, each wrong at most ` +
    `${levelPct(c.alpha)} of the time.`
  )
}

/**
 * How long a case measured: its pairs against the planned looks, why it stopped, and where its
 * time went when that was measured.
 */
function sequenceLine(k: PairedCase, caseAlpha: number): string {
  const { looks, pairs, stop, seconds, split } = k.sequence
  const time = seconds === null ? '' : ` in ${fmtDuration(seconds)}`
  const spent =
    seconds === null || !split ? '' : `; of its ${fmtDuration(seconds)}, ${timeSplitText(split)}`
  if (looks.length === 1) return `${caseLabel(k)}: ${pairs} pairs${time}, one look${spent}.`
  const at = looks.filter(n => n <= pairs)
  return (
    `${caseLabel(k)}: ${pairs} pairs${time}, looked at after ${at.join(', ')} of up to ` +
    `${looks[looks.length - 1]} (${STOP_TEXT[stop]}); each interval at ` +
    `${fmtPercent(1 - k.level, { spaced: true })} so that all ${looks.length} planned looks hold ` +
    `together at ${levelPct(1 - caseAlpha)}${spent}.`
  )
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

/** Each pair's ratio of the verdict metric's run figures, per case; empty without one. */
function ratioTable(c: PairedComparison): string[] {
  const gating = c.cases.flatMap(k => k.metrics.filter(m => m.gating).map(m => ({ k, m })))
  if (!gating.length) return []
  const n = Math.max(...gating.map(({ m }) => m.ratios.length))
  return [
    'Each pair’s ratio of run figures (20 %-trimmed mean requests), head ÷ base:',
    '',
    `| Case | Metric | ${Array.from({ length: n }, (_, i) => `Pair ${i + 1}`).join(' | ')} |`,
    `|---|---|${'---:|'.repeat(n)}`,
    ...gating.map(
      ({ k, m }) =>
        `| ${caseLabel(k)} | ${inlineCode(m.metric)} | ${m.ratios.map(r => r.toFixed(3)).join(' | ')} |`
    ),
    ''
  ]
}

/** Each side's trace note, when its traces came back incomplete or spans were dropped. */
const traceLines = (k: PairedCase): (string | null)[] =>
  (['base', 'head'] as const).map(side => {
    const note = traceNote(k.traces[side])
    return note && `${caseLabel(k)}, ${side}: ${note}`
  })

/**
 * The report of a paired run (comment and job summary): the mode, what each side is, the block
 * order, headline verdicts, each pair's ratio, and the per-hop metrics folded per case.
 */
export function renderPairedMarkdown(
  c: PairedComparison,
  links: ReportLinks = {},
  compared: ComparedCommits | null = null,
  thresholds = ''
): string {
  const { load } = c
  const commit = c.commit ? `${shortSha(c.commit)} · ` : ''
  const lines = [
    headline(c),
    '',
    `${commit}**head** ${sideText(c, 'head')} vs **base** ${sideText(c, 'base')}, both measured ` +
      `in this job, paired on this runner · engine \`${c.engine}\` · ` +
      `${orderText(c.order, c.interleave)} (A = base, B = head) · ` +
      (c.side.head ? `requests of ${load.batchSize} docs × ${load.docBytes} B · ` : '') +
      `threshold ${fmtPlusMinus(c.threshold)}`,
    '',
    ...(compared ? [comparedLine(compared), ''] : []),
    familyLine(c),
    ''
  ]
  const answers = c.cases
    .map(k => caseAnswer(k, c.threshold))
    .filter((l): l is string => l !== null)
  const canaries = c.cases
    .flatMap(k => [setAsideLine(k), canaryLine(k, c.threshold), ...traceLines(k)])
    .filter((l): l is string => l !== null)
  if (answers.length || canaries.length) {
    lines.push(...[...answers, ...canaries].map(a => `- ${a}`), '')
  }
  // The absolute gates, after the answers: a long report is cut from its end.
  if (thresholds) lines.push(thresholds)
  const main = c.cases.flatMap(k =>
    k.metrics.filter(m => m.gating || m.evidence !== null).map(m => metricRow(k, m))
  )
  if (main.length) {
    lines.push(
      ...TABLE_HEAD,
      ...main,
      '',
      answerLegend(
        c.cases.flatMap(k => k.metrics.filter(m => m.gating).map(m => m.metric)),
        c.threshold
      ),
      '',
      diagnosticsWords(c),
      '',
      ...c.cases.map(k => `- ${sequenceLine(k, c.caseAlpha)}`),
      ''
    )
  } else {
    lines.push('No case had a metric measured on both sides.', '')
  }
  lines.push(...ratioTable(c))
  for (const k of c.cases) {
    const rest = k.metrics.filter(m => !m.gating)
    if (!rest.length) continue
    lines.push(...detailsBlock(caseLabel(k), [...TABLE_HEAD, ...rest.map(m => metricRow(k, m))]))
  }
  const method = safeUrl(links.methodUrl)
  const dashboard = safeUrl(links.dashboardUrl)
  lines.push(
    [
      `Values: ${c.test.values}; a pair is a base run and the head run ` +
        `beside it; change = geometric mean of the pairs’ ratios − 1, with its ` +
        `interval from ${c.test.test}, at the level that keeps every ` +
        `look of every case of an adaptive run together at ${levelPct(1 - c.alpha)}; a “no change” shows the interval it was read from, each end held over every look at ${fmtPercent(1 - c.alpha, WHOLE)} (two one-sided tests at ${fmtPercent(c.alpha, WHOLE)}). Nothing of the base is recorded in the history; a recording run’s entries keep their change against it` +
        (method ? ` (${link('method', method)}).` : '.'),
      dashboard ? link('Dashboard', dashboard) : null
    ]
      .filter(Boolean)
      .join(' · ')
  )
  return lines.join('\n') + '\n'
}
