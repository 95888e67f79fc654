import type { ComparedCommits } from '../result/compared-commits'
import { inlineCode } from '../text/escape'
import { shortSha } from './markdown'

/**
 * Which two commits a pull request's paired run compared, and why those: the reader checks that
 * only the pull request's change lies between them.
 */
export function comparedLine(c: ComparedCommits): string {
  const ref = inlineCode(c.baseRef)
  if (c.workspace === 'test-merge') {
    return (
      `Compared: the test merge ${shortSha(c.merge)} (head ${shortSha(c.head)} merged into ` +
      `${ref}) against ${ref} at ${shortSha(c.base)}, the merge's first parent, so ${ref}'s own ` +
      'changes since the pull request forked are on both sides.'
    )
  }
  const base = c.base ? shortSha(c.base) : 'its merge-base'
  return (
    `Compared: the pull request's head ${shortSha(c.head)}, checked out itself, against ${base}, ` +
    `its merge-base with ${ref}, so only the pull request's own commits differ.`
  )
}
