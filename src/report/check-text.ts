import type { CheckReading } from '../judge/check'
import { count } from '../text/count'
import { capComment } from './cap'
import { markerKey } from './comment-marker'

/**
 * The words of a run's check run: its name, its one-line title, the hidden line a report carries
 * for pr-comment-fork.yml, and its summary.
 */

/**
 * The check's name: `latency / ` and the comment key as its marker holds it (whitespace as one
 * space, `%`, `<`, `>` and non-ASCII percent-encoded, a long key shortened with a hash). Stable
 * across re-runs, one per workflow, job and matrix values, and the same whether the job or
 * pr-comment-fork.yml (which reads the key from the report's marker) creates it, so one name
 * can be required for pull requests from branches and from forks.
 */
export const checkName = (key: string): string => `latency / ${markerKey(key)}`

/**
 * The answer in one line of printable ASCII without angle brackets (pr-comment-fork.yml takes no
 * other title from an artifact), worst first; the counts are of cases and profiles.
 */
export function checkTitle(r: CheckReading): string {
  if (r.conclusion === 'failure') {
    return [
      r.regressed ? `Latency regression in ${count(r.regressed, 'case')}` : null,
      r.broken ? `${count(r.broken, 'threshold')} broken` : null
    ]
      .filter(Boolean)
      .join('; ')
  }
  if (r.conclusion === 'neutral')
    return `Cannot tell in ${r.inconclusive} of ${count(r.compared, 'case')}; no regression found`
  return r.compared
    ? `No latency regression in ${count(r.compared, 'case')}`
    : 'No threshold broken'
}

/**
 * The report's second line, hidden in the comment: the check's conclusion and title, for
 * pr-comment-fork.yml to create the check a fork's read-only token could not.
 */
export const checkLine = (r: CheckReading): string =>
  `<!-- check: ${r.conclusion}; ${checkTitle(r)} -->`

/** GitHub refuses a check run's summary over 65,535 characters. */
export const CHECK_SUMMARY_LIMIT = 65_535

/** The report as the check's summary, cut like the comment under the check's limit. */
export const checkSummary = (report: string, note: string): string =>
  capComment(report, note, CHECK_SUMMARY_LIMIT)
