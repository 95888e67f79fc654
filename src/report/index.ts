/**
 * The words of the judgements (judge/): the pull-request comment's Markdown in history and paired
 * mode, a bisect's report. The comment's REST calls are the action's (src/action/comment.ts).
 */
export { COMMENT_MARKER, renderComparisonMarkdown, type ReportLinks } from './markdown'
export { renderPairedMarkdown } from './paired-markdown'
export { renderBisectMarkdown } from './bisect-text'
