import { commitParents, workspaceKind, type ComparedCommits } from '../result/compared-commits'
import { git } from '../result/local-git'

/** The pull request's facts the base is found from. */
export interface PullRequestShas {
  number: number
  headSha: string
  baseSha: string | null
  baseRef: string
}

/**
 * The commits a pull request's run compares, from what the workspace holds (`ComparedCommits`);
 * a sentence saying why no base can be found when the workspace is neither the pull request's head
 * nor GitHub's merge of it. The parents are read from the commit object, so a shallow test merge
 * (fetch-depth 1) still names its base.
 */
export async function comparedCommits(
  workspace: string,
  pr: PullRequestShas
): Promise<ComparedCommits | string> {
  const sha = await git(workspace, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'])
  const raw = sha && (await git(workspace, ['cat-file', 'commit', sha]))
  if (!sha || !raw) return `the workspace ${workspace} holds no git checkout`
  const parents = commitParents(raw)
  const kind = workspaceKind({ sha, parents }, pr.headSha)
  if (kind === 'test-merge') {
    return { workspace: kind, merge: sha, head: pr.headSha, base: parents[0], baseRef: pr.baseRef }
  }
  if (kind === 'head') {
    const base = pr.baseSha && (await git(workspace, ['merge-base', pr.baseSha, sha]))
    return { workspace: kind, head: sha, base: base || null, baseRef: pr.baseRef }
  }
  return (
    `the workspace holds commit ${sha}, which is neither the pull request's head ${pr.headSha} ` +
    `nor GitHub's merge of it (refs/pull/${pr.number}/merge, whose second parent is the head): ` +
    `check out the pull request's merge (actions/checkout's default) or its head ` +
    '(ref: ${{ github.event.pull_request.head.sha }})'
  )
}

/** Whether the workspace's repository has `sha` (a shallow clone lacks the commits it did not fetch). */
export const hasCommit = async (workspace: string, sha: string): Promise<boolean> =>
  (await git(workspace, ['cat-file', '-t', sha])) === 'commit'
