import { seriesKey, type HistoryEntry } from '../history/schema'
import {
  isRegression,
  newerFirst,
  ofVerdictMetric,
  stepsOfSeries,
  type TrendStep
} from '../trend/series'

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
