import type { HistoryEntry } from '../history/schema'
import { escapeMarkdown, inlineCode, markdownLink as link, safeUrl } from '../text/escape'
import { answerLegend, answerLine, headlineAnswer, verdictCell as judgedCell } from './answer-text'
import type { CaseComparison, Comparison, MetricComparison } from '../judge/compare'
import type { Diagnosed } from '../judge/multiplicity'
import { MIN_DRIFT_JOBS } from '../judge/drift'
import { count } from '../text/count'
import { diagnosticsLegend, evidenceCell } from './evidence-text'
import { fmtChange, fmtInterval, fmtPlusMinus } from '../text/percent'
import { fmtP } from '../text/p-value'
import { fmtFigure } from './metric-words'
import { traceNote } from './trace-text'

export interface ReportLinks {
  /** The published dashboard (GitHub Pages). */
  dashboardUrl?: string | null
  /** `https://github.com/owner/repo`, for commit links when an entry has no URL of its own. */
  repositoryUrl?: string | null
  /** Where the method is explained (docs/regression.md in the action's repository). */
  methodUrl?: string | null
}

/** The verdict metric's answer, or a diagnostic's evidence (never a verdict). */
function verdictCell(m: MetricComparison & Diagnosed): string {
  if (!m.gating) return evidenceCell(m)
  const text = judgedCell(m)
  return m.method === 'run-medians' ? text : `${text} (threshold only, untested)`
}

const intervalCell = (m: MetricComparison): string => (m.ci ? fmtInterval(m.ci) : '–')

function metricRow(caseLabel: string, m: MetricComparison & Diagnosed): string {
  const cells = [
    caseLabel,
    inlineCode(m.metric),
    fmtFigure(m.metric, m.baseline),
    fmtFigure(m.metric, m.pr),
    fmtChange(m.change),
    intervalCell(m),
    m.p === null ? '–' : fmtP(m.p),
    `${m.runs.baseline} / ${m.runs.pr}`,
    verdictCell(m)
  ]
  return `| ${cells.join(' | ')} |`
}

const TABLE_HEAD = [
  '| Case | Metric | Baseline | PR | Change | 95% CI of change | p | Runs (base / PR) | Verdict or evidence |',
  '|---|---|---:|---:|---:|---:|---:|---:|---|'
]

/** A case's diagnostic rows, folded: `label` is Markdown already escaped. */
export const detailsBlock = (label: string, table: string[]): string[] => [
  '<details>',
  `<summary>Per-hop and per-service details: case ${label}</summary>`,
  '',
  ...table,
  '',
  '</details>',
  ''
]

const caseLabel = (c: CaseComparison): string =>
  `${escapeMarkdown(c.caseId)} ${escapeMarkdown(c.caseName)} · ${escapeMarkdown(c.profile)}`.trim()

/** What traces missed, per case whose traces came back incomplete or dropped spans. */
const traceNotes = (cases: CaseComparison[]): string[] =>
  cases.flatMap(k => {
    const note = traceNote(k.traces)
    return note ? [`- Case ${caseLabel(k)}: ${note}`] : []
  })

/** Why some rows of a case were not tested, once per case instead of in every row. */
function untestedNotes(cases: CaseComparison[]): string[] {
  return cases.flatMap(k =>
    [...new Set(k.metrics.map(m => m.note).filter((n): n is string => n !== null))].map(
      n => `- Case ${caseLabel(k)}: ${escapeMarkdown(n)}`
    )
  )
}

/**
 * How each case's verdict allowed for the drift between jobs, which no interval of one job holds:
 * measured from the series' recorded jobs on the base branch and held in the interval, or too few
 * jobs to measure it, so a change had to clear the threshold.
 */
function driftNotes(cases: CaseComparison[], threshold: number): string[] {
  return cases.flatMap(k => {
    const gate = k.metrics.find(m => m.gating)
    const d = gate?.drift
    if (!gate || !d) return []
    const jobs = count(d.jobs, 'recorded job')
    const text =
      d.logSd === null
        ? `the history holds ${jobs} of this series on the base branch, and ${MIN_DRIFT_JOBS} are needed to measure how far jobs drift apart, so a change had to clear ${fmtPlusMinus(threshold)}`
        : `separate jobs of this series drift by ${fmtPlusMinus(Math.expm1(d.logSd))} (s.d. from its ${jobs} on the base branch beyond what their runs show); the interval holds it`
    return [`- Case ${caseLabel(k)}: ${text}.`]
  })
}

/** Hex SHAs are shown as code; anything else a history file calls a SHA is escaped text. */
export const shortSha = (sha: string): string =>
  /^[0-9a-f]+$/i.test(sha) ? inlineCode(sha.slice(0, 7)) : escapeMarkdown(sha.slice(0, 12))

function commitLink(e: HistoryEntry, links: ReportLinks): string {
  const sha = e.commit.sha
  if (!sha) return 'unknown commit'
  const repo = safeUrl(links.repositoryUrl)
  const url =
    safeUrl(e.commit.url) ?? (repo && /^[0-9a-f]+$/i.test(sha) ? `${repo}/commit/${sha}` : null)
  return link(shortSha(sha), url)
}

const SELECTED_BY = {
  'merge-base': 'base commit of the PR',
  'latest-on-base': 'newest on the base branch',
  latest: 'newest in history'
}

function baselineRow(c: CaseComparison, links: ReportLinks, prGnes: string | null): string {
  const b = c.baseline
  if (!b.entry)
    return `| ${caseLabel(c)} | — | — | — | **no baseline**: ${escapeMarkdown(b.reason)} |`
  const e = b.entry
  const ref = e.commit.ref ? escapeMarkdown(e.commit.ref.replace(/^refs\/heads\//, '')) : '–'
  const subject = e.commit.message
    ? escapeMarkdown(e.commit.message.split('\n')[0].slice(0, 72))
    : ''
  const gnes =
    !e.gnes || e.gnes.version === prGnes ? '' : ` (GNES ${escapeMarkdown(e.gnes.version)})`
  return `| ${caseLabel(c)} | ${commitLink(e, links)} ${subject} | ${ref} | ${e.timestampEval.slice(0, 16).replace('T', ' ')} UTC${gnes} | ${SELECTED_BY[b.reason]} |`
}

/** The comment's title: GNES's where the run measured GNES, plain latency for generic cases. */
export const reportTitle = (gnesVersion: string | null): string =>
  gnesVersion === null ? 'Latency' : 'GNES latency'

function headline(c: Comparison): string {
  const title = reportTitle(c.pr.gnesVersion)
  const all = c.cases.flatMap(k => k.metrics)
  if (all.length === 0) return `### ${title}: no baseline to compare with`
  const gating = all.filter(m => m.gating)
  const others = all.filter(m => m.evidence !== null).length
  const tail = others ? ` (${others} diagnostic${others === 1 ? '' : 's'} moved)` : ''
  return `### ${title}: ${headlineAnswer(
    gating.map(m => m.verdict),
    c.threshold
  )}${tail}`
}

/** What the pull request's side was: its commit, engine, load and the threshold. */
function sideLine(c: Comparison): string {
  const load = c.pr.load
  const pr = c.pr.sha ? shortSha(c.pr.sha) : 'this pull request'
  return (
    `${pr} vs its baseline · engine \`${c.pr.engine}\` · ` +
    (c.pr.cpusAwake ? 'CPUs held awake · ' : '') +
    (c.pr.gnesVersion === null
      ? ''
      : `GNES ${escapeMarkdown(c.pr.gnesVersion)} · requests of ${load.batchSize} docs × ${load.docBytes} B, `) +
    `${load.runs} measured runs per profile · threshold ${fmtPlusMinus(c.threshold)}`
  )
}

/**
 * The pull-request comment (and job summary): headline metrics of every case in one table, the
 * per-hop and per-service metrics folded per case, then where each baseline came from; the
 * thresholds' section (`thresholds`, report/threshold-text.ts) after the answers.
 */
export function renderComparisonMarkdown(
  c: Comparison,
  links: ReportLinks = {},
  thresholds = ''
): string {
  const lines = [headline(c), '', sideLine(c), '']
  const compared = c.cases.filter(k => k.metrics.length > 0)
  const answers = compared
    .map(k =>
      answerLine(caseLabel(k), k.metrics, c.threshold, {
        n: Math.min(
          ...k.metrics.filter(m => m.gating).map(m => Math.min(m.runs.baseline, m.runs.pr))
        ),
        word: 'run a side'
      })
    )
    .filter((l): l is string => l !== null)
  if (answers.length) lines.push(...answers.map(a => `- ${a}`), '')
  // The absolute gates, after the answers: a long report is cut from its end.
  if (thresholds) lines.push(thresholds)
  const drift = driftNotes(compared, c.threshold)
  if (drift.length) lines.push('Drift between jobs:', ...drift, '')
  const traces = traceNotes(c.cases)
  if (traces.length) lines.push(...traces, '')
  const main = compared.flatMap(k =>
    k.metrics
      .filter(m => m.headline || m.gating || m.evidence !== null)
      .map(m => metricRow(caseLabel(k), m))
  )
  if (main.length) {
    lines.push(
      ...TABLE_HEAD,
      ...main,
      '',
      `${answerLegend(
        compared.flatMap(k => k.metrics.filter(m => m.gating).map(m => m.metric)),
        c.threshold
      )} The other metrics show where time moved (the millisecond-sized ones drift between ` +
        'jobs). Separate jobs drift apart, which no interval of one job holds: each interval ' +
        `holds the drift its series' recorded jobs show, and with fewer than ${MIN_DRIFT_JOBS} ` +
        'of them a change must clear the threshold (*Drift between jobs*).',
      '',
      diagnosticsLegend(`α = ${c.alpha}`),
      ''
    )
  }
  const notes = untestedNotes(compared)
  if (notes.length) lines.push('Untested rows:', ...notes, '')
  for (const k of compared) {
    const rest = k.metrics.filter(m => !m.headline)
    if (!rest.length) continue
    lines.push(
      ...detailsBlock(caseLabel(k), [...TABLE_HEAD, ...rest.map(m => metricRow(caseLabel(k), m))])
    )
  }
  lines.push(
    '| Case | Baseline commit | Branch | Measured | Selected as |',
    '|---|---|---|---|---|',
    ...c.cases.map(k => baselineRow(k, links, c.pr.gnesVersion)),
    ''
  )
  const method = safeUrl(links.methodUrl)
  const dashboard = safeUrl(links.dashboardUrl)
  lines.push(
    [
      `Values: ${c.test.values}; test: ${c.test.test}` +
        (method ? ` (${link('method', method)}).` : '.'),
      dashboard ? link('Dashboard', dashboard) : null
    ]
      .filter(Boolean)
      .join(' · ')
  )
  return lines.join('\n') + '\n'
}
