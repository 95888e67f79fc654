import { invalidInput } from '../config/preflight'
import { branchDir } from '../site/layout'
import { isRefName, knownRef, lsRemoteHeads, pendingPrefix, redactUrl } from '../store'

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
  if (!(await isRefName(`refs/heads/${branch}`))) {
    throw invalidInput(
      'gh-pages-branch',
      branch,
      'gh-pages-branch is not a name git takes for a branch (see git check-ref-format)'
    )
  }
  for (const ref of [`${pendingPrefix(branch, inside)}x`, knownRef(branch, inside)]) {
    if (!(await isRefName(ref))) {
      throw invalidInput('history-dir', dir, `history-dir gives the ref ${ref}, which git refuses`)
    }
  }
}

/**
 * Pre-flight: the history's repository answers `git ls-remote` (a few hundred bytes) before a run
 * that will read or write it. The error names the input, never a credential in it.
 */
export async function checkReachable(url: string, token?: string): Promise<void> {
  try {
    await lsRemoteHeads(url, token)
  } catch (err) {
    const why = (err as Error).message.split('\n').find(l => /fatal|error/i.test(l)) ?? ''
    throw invalidInput(
      'history-repository',
      redactUrl(url),
      `cannot reach the history's repository: ${redactUrl(why.trim())}`
    )
  }
}
