import { seriesKey, type HistoryEntry } from '../history/schema'
import {
  isRegression,
  ofHeadline,
  ofVerdictMetric,
  searchSeries,
  seriesSteps,
  type TrendStep
} from '../trend/series'
import { profileLabel, type Profile } from '../profile/definition'
import { escapeMarkdown, inlineCode, markdownLink, safeUrl } from '../text/escape'
import { commitRef, fmtTime } from './format'

/**
 * The steps a series' entries show (entries newest first, as render holds them): change points
 * of its headline and of each other metric, found within each group of entries measured alike,
 * newest first.
 */
export function stepsOfSeries(entries: readonly HistoryEntry[]): TrendStep[] {
  return searchSeries([...entries].reverse(), seriesSteps).sort(newerFirst)
}

/** Steps by when their first entry at the new level was recorded, newest first. */
const newerFirst = (a: TrendStep, b: TrendStep): number =>
  Date.parse(b.firstAfter.timestampEval) - Date.parse(a.firstAfter.timestampEval)

/**
 * The slowdown a bisect searches, from a history's series (`shownSeries`, each newest first): the
 * newest step that made the metric a series is judged by slower (`path` for a GNES case at
 * minimal or paced load, else the headline; the metric the bisect's paired verdicts read), among
 * every series, or those of one case (`1`) or series (`1/minimal@5`). Both of its entries must
 * name the commit they measured; the error says what there is instead.
 */
export function slowdownToBisect(series: readonly HistoryEntry[][], which: string): TrendStep {
  const chosen = series
    .filter(es => which === 'newest' || seriesKey(es[0]) === which || es[0].caseId === which)
    .flatMap(stepsOfSeries)
    .filter(s => ofVerdictMetric(s) && isRegression(s))
    .sort(newerFirst)
  const where = which === 'newest' ? 'the history' : `series ${which}`
  if (!chosen.length) {
    const entries = series.reduce((n, es) => n + es.length, 0)
    throw new Error(
      `no slowdown of a verdict metric (path or the headline) in ${where} (${entries} entries): nothing to bisect`
    )
  }
  const [step] = chosen
  const missing = [step.lastBefore, step.firstAfter].filter(e => !e.commit.sha)
  if (missing.length) {
    throw new Error(
      `the newest slowdown in ${where} lies between entries without a commit (${missing.map(e => e.id).join(', ')}): give --good and --bad instead`
    )
  }
  return step
}

const pct = (x: number): string => `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(1)} %`

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
    .sort(
      (a, b) =>
        Date.parse(b.step.firstAfter.timestampEval) - Date.parse(a.step.firstAfter.timestampEval)
    )
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
