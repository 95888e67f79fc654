import type { ZodError } from 'zod'

/** A history file (or an entry about to be stored) that cannot be trusted; names the file and why. */
export class HistoryError extends Error {
  constructor(
    readonly file: string,
    readonly problem: string
  ) {
    super(`${file}: ${problem}`)
    this.name = 'HistoryError'
  }
}

/** One line per zod issue, with the path inside the entry, so a maintainer can fix the file by hand. */
export function describeIssues(error: Pick<ZodError, 'issues'>): string {
  return error.issues
    .map(i => `at ${i.path.length ? i.path.join('.') : '(top level)'}: ${i.message}`)
    .join('; ')
}
