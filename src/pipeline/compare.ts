import type { HistoryEntry } from '../history'
import {
  comparePaired,
  compareResult,
  type PairedComparison,
  type CompareOptions,
  type Comparison
} from '../judge'
import { renderComparisonMarkdown, renderPairedMarkdown, type ReportLinks } from '../report'
import type { ComparedCommits } from '../result/compared-commits'
import type { Result } from '../result/schema'
import type { PairedRun } from './suite/paired'

/**
 * A result against its baseline in the history: the verdicts and their Markdown report, with the
 * thresholds' section (`thresholds`, judged beside it) after the answers.
 */
export function compareWithHistory(
  result: Result,
  history: readonly HistoryEntry[],
  options: CompareOptions,
  links: ReportLinks,
  thresholds = ''
): { comparison: Comparison; markdown: string } {
  const comparison = compareResult(result, history, options)
  return { comparison, markdown: renderComparisonMarkdown(comparison, links, thresholds) }
}

/** A paired run's two sides against each other: the verdicts and their Markdown report. */
export function comparePairedRun(
  run: PairedRun,
  options: { threshold: number },
  links: ReportLinks,
  compared: ComparedCommits | null = null,
  thresholds = ''
): { comparison: PairedComparison; markdown: string } {
  const comparison = comparePaired(run, options)
  return { comparison, markdown: renderPairedMarkdown(comparison, links, compared, thresholds) }
}
