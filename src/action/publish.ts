import * as core from '@actions/core'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { actionsLog, fail } from './log'
import { capComment } from '../report/cap'
import { postOrUpdateComment, type CommentOutcome, type CommentTarget } from './comment'
import { commentMarker, markReport } from '../report/comment-marker'
import { overallVerdict, type CaseVerdict } from '../judge/verdict'

interface PublishOptions {
  /** A history-mode or paired comparison: whether it found a regression, and each case's answer. */
  comparison: { regression: boolean; verdicts: CaseVerdict[] }
  markdown: string
  /** Names the pull-request comment this report keeps (`comment-key`); its marker opens the report. */
  commentKey: string
  /** Where the Markdown report is written; becomes the `report` output. */
  reportPath: string
  failOnRegression: boolean
  /** What an inconclusive case does to the step: a warning, or a failure. */
  onInconclusive: 'warn' | 'fail'
  /** Null when `comment-on-pr` is off or there is no pull request / token. */
  comment: Omit<CommentTarget, 'body' | 'marker' | 'head'> | null
  /** The pull request's head commit the verdict is about, written into the marker line. */
  head: string | null
  /** The check's hidden line (`checkLine`), after the marker line; none with `check-run: false`. */
  check?: string | null
}

interface PublishOutcome {
  comment: CommentOutcome['outcome'] | 'skipped' | 'error'
  /** True when `fail-on-regression` or `on-inconclusive: fail` marked the step failed. */
  failed: boolean
}

/**
 * The action's edge for a verdict (a pull request's, or a paired run's on any event): report file,
 * outputs, comment (or the job summary when the token may not comment, as on forks), and the
 * step's failure on regression. Commenting is a
 * courtesy: no commenting problem fails the step, only a regression with `fail-on-regression`.
 */
export async function publishPullRequestReport(o: PublishOptions): Promise<PublishOutcome> {
  // The report file carries the marker (and the check's line) too: pr-comment-fork.yml posts it
  // to its own comment and creates the check.
  const markdown = o.check ? `${o.check}\n${o.markdown}` : o.markdown
  const report = markReport(markdown, o.commentKey, o.head)
  fs.mkdirSync(path.dirname(path.resolve(o.reportPath)), { recursive: true })
  fs.writeFileSync(o.reportPath, report)
  core.setOutput('regression', String(o.comparison.regression))
  core.setOutput('verdict', overallVerdict(o.comparison.verdicts))
  core.setOutput('verdicts', JSON.stringify(o.comparison.verdicts))
  core.setOutput('report', o.reportPath)

  let comment: PublishOutcome['comment'] = 'skipped'
  if (o.comment) {
    try {
      const note = `the full report is in the job summary and in ${o.reportPath} (the \`report\` output).`
      const posted = await postOrUpdateComment({
        ...o.comment,
        marker: commentMarker(o.commentKey),
        head: o.head,
        body: capComment(report, note)
      })
      comment = posted.outcome
      if (posted.outcome === 'kept')
        actionsLog.info(
          `pull request #${o.comment.issueNumber}: comment left as it is: ${posted.reason}; this run's report is in the job summary`
        )
    } catch (err) {
      comment = 'error'
      actionsLog.warn(
        `could not comment on pull request #${o.comment.issueNumber}: ${(err as Error).message}; the report is in the job summary`
      )
    }
    if (comment === 'forbidden') {
      actionsLog.warn(
        `the token may not comment on pull request #${o.comment.issueNumber} (403; pull requests from forks get a read-only token). ` +
          'The report is in the job summary; see workflows/pr-comment-fork.yml for commenting from a workflow_run.'
      )
    }
  }
  if (process.env.GITHUB_STEP_SUMMARY) await core.summary.addRaw(report).write()

  const unknown = o.comparison.verdicts.filter(v => v.verdict === 'inconclusive')
  const cannotTell =
    unknown.length &&
    `this run cannot tell whether latency changed in ${unknown
      .map(v => `case ${v.case} (${v.profile})`)
      .join(', ')}: measure longer (runs, max-pairs) or on a quieter runner; see ${o.reportPath}`
  const regressed = o.failOnRegression && o.comparison.regression
  const failed = regressed || (cannotTell !== 0 && o.onInconclusive === 'fail')
  if (regressed) {
    fail(`latency regression found (fail-on-regression is on); see ${o.reportPath}`)
  } else if (cannotTell && o.onInconclusive === 'fail') {
    fail(`${cannotTell} (on-inconclusive is fail)`)
  }
  if (cannotTell && !failed) actionsLog.warn(cannotTell)
  return { comment, failed }
}
