import { invalidInput } from '../config/preflight'
import { gitIn } from './git'
import { branchDir, knownRef, pendingPrefix } from './layout'

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
