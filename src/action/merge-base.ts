import { execFile } from 'node:child_process'

/**
 * The merge-base of the pull request's head and base, from the workflow's checkout when it has
 * both commits (actions/checkout with fetch-depth: 0); null otherwise, and the baseline then
 * falls back to the newest entry of the base branch.
 */
export function mergeBase(cwd: string, base: string, head: string): Promise<string | null> {
  return new Promise(resolve => {
    execFile('git', ['merge-base', base, head], { cwd }, (err, stdout) =>
      resolve(err ? null : stdout.trim() || null)
    )
  })
}
