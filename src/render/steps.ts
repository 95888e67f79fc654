import type { HistoryEntry } from '../history/schema'
import { isRegression, newerFirst, ofHeadline, type TrendStep } from '../trend/series'
import { profileLabel, type Profile } from '../profile/definition'
import { escapeMarkdown, inlineCode, markdownLink, safeUrl } from '../text/escape'
import { fmtPercent } from '../text/percent'
import { fmtTime } from '../text/timestamp'
import { commitRef } from './format'

const pct = (x: number): string => fmtPercent(x, { sign: '+−', spaced: true })

/** `+5.2 %`: a step's size alone. */
export const stepChange = (s: TrendStep): string => pct(s.change)

/** `+5.2 % [+3.1 %, +7.3 %]`: a step's size with its interval. */
export const stepSize = (s: TrendStep): string =>
  `${pct(s.change)} [${pct(s.interval[0])}, ${pct(s.interval[1])}]`

/** `abc1234 → def5678`: the commits a step lies between (days where no commit is known). */
export function stepRange(s: TrendStep, repositoryUrl?: string): { from: string; to: string } {
  const label = (e: HistoryEntry) =>
    commitRef(e, repositoryUrl)?.sha.slice(0, 7) ?? e.timestampEval.slice(0, 10)
  return { from: label(s.lastBefore), to: label(s.firstAfter) }
}

/** What a chart's mark of a step says, and its colour. */
export interface StepMark {
  text: string
  /** The size alone, written beside the rule. */
  label: string
  color: string
}

/** What a step's rule on its metric's trend says. */
function stepMark(s: TrendStep, repositoryUrl?: string): StepMark {
  const r = stepRange(s, repositoryUrl)
  return {
    text: `${s.metric} step ${stepSize(s)} between ${r.from} and ${r.to}`,
    label: stepChange(s),
    color: isRegression(s) ? '#c0392b' : '#1e8449'
  }
}

/** The marks of a series' headline steps (its static trend chart), by the first entry after. */
export const stepMarks = (steps: readonly TrendStep[], repositoryUrl?: string) =>
  new Map(steps.filter(ofHeadline).map(s => [s.firstAfter.id, stepMark(s, repositoryUrl)]))

/** The dashboard's steps of a series, every metric's: each ruled on its own metric's trend. */
export const dashboardSteps = (steps: readonly TrendStep[], repositoryUrl?: string) =>
  steps.map(s => ({
    id: s.firstAfter.id,
    metric: s.metric,
    ...stepMark(s, repositoryUrl),
    when: fmtTime(s.firstAfter.timestampEval)
  }))

/** Rows of the README's recent changes, newest first: each cell Markdown, escaped here. */
export interface ChangeRow {
  case: string
  profile: string
  metric: string
  step: string
  between: string
  when: string
}

/** The newest steps of every series, at most `max`, as the README's table shows them. */
export function changeRows(
  series: readonly {
    caseId: string
    profile: Profile
    steps: TrendStep[]
    shown: HistoryEntry[]
  }[],
  repositoryUrl?: string,
  max = 10
): ChangeRow[] {
  const link = (e: HistoryEntry, text: string) =>
    markdownLink(escapeMarkdown(text), safeUrl(commitRef(e, repositoryUrl)?.url ?? null))
  return series
    .flatMap(s => s.steps.map(step => ({ s, step })))
    .sort((a, b) => newerFirst(a.step, b.step))
    .slice(0, max)
    .map(({ s, step }) => {
      const r = stepRange(step, repositoryUrl)
      return {
        case: escapeMarkdown(s.caseId),
        // The profile, the size and the time are this project's own text, safe as written.
        profile: profileLabel(s.profile, s.shown[0]?.gnes === null),
        metric: inlineCode(step.metric),
        step: `${isRegression(step) ? '🔴 slower' : '🟢 faster'} ${stepSize(step)}`,
        between: `${link(step.lastBefore, r.from)} → ${link(step.firstAfter, r.to)}`,
        when: fmtTime(step.firstAfter.timestampEval)
      }
    })
}
