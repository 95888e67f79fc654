/** The pull-request regression report: baseline choice, verdicts, Markdown, comment. */
export { selectBaseline, type BaselineChoice, type BaselineQuery } from './baseline'
export {
  compareMetric,
  compareResult,
  type CaseComparison,
  type CompareOptions,
  type Comparison,
  type MetricComparison,
  type Verdict
} from './compare'
export { COMMENT_MARKER, renderComparisonMarkdown, type ReportLinks } from './markdown'
export { postOrUpdateComment, type CommentOutcome, type CommentTarget } from './comment'
