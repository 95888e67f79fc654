import { metricType } from '../config/thresholds'
import type { ThresholdOutcome, ThresholdReport } from '../judge/thresholds'
import { count } from '../text/count'
import { escapeMarkdown, inlineCode } from '../text/escape'
import { fmtPercent } from '../text/percent'
import { fmtRate } from '../text/rate'
import { fmtFigure } from './metric-words'

/**
 * A threshold's figure in its metric's form: a time (CPU per request too), a peak in MiB, a share
 * of requests, a count or a rate.
 */
function figureText(o: ThresholdOutcome): string {
  if (o.figure === null) return '—'
  const t = o.threshold
  const type = metricType(t.metric)
  if (type === 'time' || type === 'cpu' || type === 'memory') return fmtFigure(t.metric, o.figure)
  if (type === 'value') return `${fmtRate(o.figure, 1)} req/s`
  return t.aggregation.kind === 'count'
    ? String(o.figure)
    : fmtPercent(o.figure, { decimals: 3, trim: true })
}

const MARK = { pass: '✅', fail: '❌', absent: '➖' } as const

const cell = (o: ThresholdOutcome | undefined): string =>
  o ? `${figureText(o)} ${MARK[o.status]}` : '—'

/** How many held and broke, in one sentence. */
function tally(report: ThresholdReport, side: string): string {
  const all = report.cases.flatMap(c => c.outcomes)
  const broken = all.filter(o => o.status === 'fail').length
  const judged = all.filter(o => o.status !== 'absent').length
  if (broken) return `❌ ${broken} of ${count(judged, 'threshold')} broken on the ${side}.`
  if (judged === 0) return `➖ no threshold applies to the ${side}'s profiles.`
  const held = judged === 1 ? 'the one threshold holds' : `all ${count(judged, 'threshold')} hold`
  return `✅ ${held} on the ${side}.`
}

/**
 * The thresholds section of a report (the comment, the job summary, the terminal): each case's
 * expressions with the head's figure and mark, and in paired mode the base's beside it. Empty
 * when no case has a threshold. Case ids and metric names are printed escaped; an expression is
 * only what the parser admitted.
 */
export function thresholdsMarkdown(head: ThresholdReport, base: ThresholdReport | null): string {
  if (head.cases.length === 0) return ''
  const header = base
    ? '| case | metric | threshold | head | base |\n| :-- | :-- | :-- | --: | --: |'
    : '| case | metric | threshold | figure |\n| :-- | :-- | :-- | --: |'
  const rows = head.cases.flatMap(c => {
    const other = base?.cases.find(b => b.case === c.case && b.profile === c.profile)
    return c.outcomes.map((o, i) => {
      const cells = [
        `${inlineCode(c.case)} (${c.profile})`,
        inlineCode(o.threshold.metric),
        // A parsed expression holds no backtick or pipe (config/thresholds.ts): safe as code.
        `\`${o.threshold.source}\``,
        cell(o),
        ...(base ? [cell(other?.outcomes[i])] : [])
      ]
      return `| ${cells.join(' | ')} |`
    })
  })
  const notes = absentNotes([...sideCases(head, ''), ...sideCases(base, ', base')])
  const note = notes.length ? `\n\n${notes.join('\n')}` : ''
  return `### Thresholds\n\n${tally(head, 'head')}\n\n${header}\n${rows.join('\n')}${note}\n`
}

/** A side's cases, each with the words that tell its side in a note (none for the head). */
const sideCases = (report: ThresholdReport | null, side: string) =>
  (report?.cases ?? []).map(c => ({ ...c, side }))

/**
 * Why each ➖ has no figure, one line per reason with where it applies (the base's marked). A
 * reason may quote the platform (a counter's error): escaped.
 */
function absentNotes(cases: ReturnType<typeof sideCases>): string[] {
  const where = new Map<string, string[]>()
  for (const c of cases) {
    for (const o of c.outcomes) {
      if (o.status !== 'absent') continue
      const at = `${inlineCode(c.case)} (${c.profile}${c.side}) ${inlineCode(o.threshold.metric)}`
      const list = where.get(o.absent) ?? []
      if (!list.includes(at)) list.push(at)
      where.set(o.absent, list)
    }
  }
  return [...where].map(([reason, at]) => `➖ ${escapeMarkdown(reason)}: ${at.join(', ')}.`)
}

/** The step's failure message: each broken threshold with its figure. */
export function brokenText(head: ThresholdReport): string {
  const broken = head.cases.flatMap(c =>
    c.outcomes
      .filter(o => o.status === 'fail')
      .map(
        o =>
          `case ${c.case} (${c.profile}): ${o.threshold.metric} ${o.threshold.source}, ${figureText(o)}`
      )
  )
  return `${count(broken.length, 'threshold')} broken (fail-on-threshold is on): ${broken.join('; ')}`
}
