import { gitIn } from './git'

/** Whether git takes `ref` as a ref name (asked of `git check-ref-format` itself). */
export async function isRefName(ref: string): Promise<boolean> {
  const git = gitIn(process.cwd())
  try {
    return await git(['check-ref-format', ref]).then(
      () => true,
      () => false
    )
  } finally {
    git.close()
  }
}

/**
 * `dir` as one component of a git ref name, for any directory (`bench/marks`, `.`, names with
 * spaces or any script): [A-Za-z0-9_-] stay, a dot stays where git allows one (not first, last,
 * doubled or before `lock` at the end), every other byte is written `%XX`. Injective, and the same
 * as the directory's own name for a plain one such as `benchmarks`.
 */
export function refSegment(text: string): string {
  const bytes = Array.from(Buffer.from(text, 'utf8'))
  let out = ''
  bytes.forEach((byte, i) => {
    const c = String.fromCharCode(byte)
    const rest = Buffer.from(bytes.slice(i)).toString('latin1')
    const dot = c === '.' && i > 0 && i < bytes.length - 1 && !out.endsWith('.') && rest !== '.lock'
    out +=
      /[A-Za-z0-9_-]/.test(c) || dot ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`
  })
  return out
}

/** Refs of this tool's own beside the branch, per directory: `refs/gnes-bench/<kind>/<branch>/<dir>/`. */
const refsOf = (kind: string, branch: string, dir: string): string =>
  `refs/gnes-bench/${kind}/${branch}/${refSegment(dir)}/`

/**
 * Where pending refs of the directory `dir` on `branch` live (pending.ts), in the remote and (as
 * fetched) in the work repository: `refs/gnes-bench/pending/gh-pages/benchmarks/`.
 */
export const pendingPrefix = (branch: string, dir: string): string => refsOf('pending', branch, dir)

/**
 * The commit this tool last pushed to the branch (`Clone.knownTip`), moved by the same atomic
 * push: a force-push of the branch leaves it where it was.
 */
export const knownPrefix = (branch: string, dir: string): string => refsOf('known', branch, dir)
export const knownRef = (branch: string, dir: string): string => `${knownPrefix(branch, dir)}tip`
