import type { ZodIssue } from 'zod'

/**
 * zod reports a union that no alternative matched as "Invalid input" at the union's place, which
 * names no key. When exactly one alternative fits the value's shape (its keys, its type) and fails
 * only further in, its problems are the ones the writer meant, so those are reported instead.
 */
export function plainIssues(issues: readonly ZodIssue[]): ZodIssue[] {
  return issues.flatMap(issue => {
    if (issue.code !== 'invalid_union') return [issue]
    const fitting = issue.unionErrors.map(e => e.issues).filter(fits(issue.path.length))
    return fitting.length === 1 ? plainIssues(fitting[0]) : [issue]
  })
}

/**
 * An alternative fits when nothing is wrong at the union's own place (a wrong type, an unknown
 * key) and none of its own keys is missing: its problems lie inside a value the writer gave.
 */
const fits =
  (depth: number) =>
  (issues: ZodIssue[]): boolean =>
    issues.every(
      i =>
        i.path.length > depth &&
        !(i.path.length === depth + 1 && i.code === 'invalid_type' && i.received === 'undefined')
    )
