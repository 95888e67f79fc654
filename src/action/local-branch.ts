import { GitError, gitIn } from '../store'

/**
 * For `auto-push: false`: brings the published history branch into the workspace's own repository,
 * so the history commit is made there on top of it, for a later step to push. Only a fast-forward
 * updates the local branch: when an earlier step of the job already committed to it unpushed, it
 * is ahead, and it is kept. A branch that does not exist yet is fine: the commit then starts it.
 */
export async function fetchBranchIntoWorkspace(
  workspace: string,
  remote: string,
  branch: string,
  token?: string
): Promise<void> {
  const git = gitIn(workspace, { token })
  try {
    // Not -q: a quiet fetch drops the "non-fast-forward" line this relies on.
    await git(['fetch', '--no-tags', remote, `refs/heads/${branch}:refs/heads/${branch}`])
  } catch (err) {
    if (err instanceof GitError && /couldn't find remote ref|non-fast-forward/.test(err.output)) {
      return
    }
    throw err
  }
}
