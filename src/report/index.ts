/**
 * The words of the judgements (judge/): the pull-request comment's Markdown in history and paired
 * mode, a bisect's report. The comment's REST calls are the action's (src/action/comment.ts).
 */
export { renderComparisonMarkdown, type ReportLinks } from './markdown'
export { commentMarker, markerLine, markReport, readMarker, REPORT_MARKER } from './comment-marker'
export { renderPairedMarkdown } from './paired-markdown'
export { renderBisectMarkdown } from './bisect-text'
