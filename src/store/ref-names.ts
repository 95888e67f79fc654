import { invalidInput } from '../config/preflight'
import { gitIn } from './git'
import { branchDir } from '../site/layout'

/**
 * Pre-flight: the branch and every ref of this tool's own beside it (pending and known refs of
 * the history directory) are names git takes, and the directory lies inside the branch. Asked of
 * `git check-ref-format` itself, before anything is installed or started.
 */
export async function checkBranchNames(branch: string, dir: string): Promise<void> {
  let inside: string
  try {
    inside = branchDir(dir)
  } catch (err) {
    throw invalidInput('history-dir', dir, (err as Error).message)
  }
  const git = gitIn(process.cwd())
  const valid = (ref: string): Promise<boolean> =>
    git(['check-ref-format', ref]).then(
      () => true,
      () => false
    )
  try {
    if (!(await valid(`refs/heads/${branch}`))) {
      throw invalidInput(
        'gh-pages-branch',
        branch,
        'gh-pages-branch is not a name git takes for a branch (see git check-ref-format)'
      )
    }
    for (const ref of [`${pendingPrefix(branch, inside)}x`, knownRef(branch, inside)]) {
      if (!(await valid(ref))) {
        throw invalidInput(
          'history-dir',
          dir,
          `history-dir gives the ref ${ref}, which git refuses`
        )
      }
    }
  } finally {
    git.close()
  }
}

/**
 * `dir` as one component of a git ref name, for any history directory (`bench/marks`, `.`, names
 * with spaces or any script): [A-Za-z0-9_-] stay, a dot stays where git allows one (not first,
 * last, doubled or before `lock` at the end), every other byte is written `%XX`. Injective, and
 * the same as the branch's own directory name for the usual `benchmarks`.
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

/** Refs of this tool's own beside the branch, per history: `refs/gnes-bench/<kind>/<branch>/<dir>/`. */
const refsOf = (kind: string, branch: string, dir: string): string =>
  `refs/gnes-bench/${kind}/${branch}/${refSegment(dir)}/`

/**
 * Where pending refs of the history in `dir` on `branch` live (src/history/pending.ts), in the
 * remote and (as fetched) in the work repository: `refs/gnes-bench/pending/gh-pages/benchmarks/`.
 */
export const pendingPrefix = (branch: string, dir: string): string => refsOf('pending', branch, dir)

/**
 * The commit this tool last pushed to the history's branch (src/history/continuity.ts), moved by
 * the same atomic push: a force-push of the branch leaves it where it was.
 */
export const knownPrefix = (branch: string, dir: string): string => refsOf('known', branch, dir)
export const knownRef = (branch: string, dir: string): string => `${knownPrefix(branch, dir)}tip`
