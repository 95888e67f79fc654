/**
 * The pull-request regression report: verdicts against the baseline in the history, or between
 * the two sides of a paired run, and their Markdown. The
 * comment's REST calls (./comment) are the action's, through src/action/publish.ts.
 */
export { compareResult, type CompareOptions, type Comparison } from './compare'
export { renderComparisonMarkdown, type ReportLinks } from './markdown'
export { commentMarker, markReport, REPORT_MARKER } from './comment-marker'
export { comparePaired, pairedMetric, type PairedCase, type PairedComparison } from './paired'
export { renderPairedMarkdown } from './paired-markdown'
export { nextStep, plannedProbes, type BisectEnd, type Probe, type ProbeResult } from './bisect'
export { renderBisectMarkdown } from './bisect-text'
export { overallVerdict } from './verdict'
