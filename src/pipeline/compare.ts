import type { HistoryEntry } from '../history'
import {
  compareResult,
  renderComparisonMarkdown,
  type CompareOptions,
  type Comparison,
  type ReportLinks
} from '../report'
import type { Result } from '../result/schema'

/** A result against its baseline in the history: the verdicts and their Markdown report. */
export function compareWithHistory(
  result: Result,
  history: readonly HistoryEntry[],
  options: CompareOptions,
  links: ReportLinks
): { comparison: Comparison; markdown: string } {
  const comparison = compareResult(result, history, options)
  return { comparison, markdown: renderComparisonMarkdown(comparison, links) }
}
