/**
 * Which two commits a pull request's verdict compares. The base must match what the workspace
 * holds: GitHub's test merge (refs/pull/N/merge, the default checkout) is the pull request merged
 * into the base branch as it is now, so its base is its first parent, and the base branch's own
 * commits since the fork are on both sides; the pull request's own commit (checked out by
 * `ref: head.sha`) is compared with the commit it forked from, its merge-base. Either way only the
 * pull request's change differs.
 */
export type ComparedCommits =
  | {
      workspace: 'test-merge'
      /** The merge commit measured as the head. */
      merge: string
      /** The pull request's head commit, the merge's second parent. */
      head: string
      /** The merge's first parent: the base branch as the merge saw it. */
      base: string
      baseRef: string
    }
  | {
      workspace: 'head'
      head: string
      /** The merge-base of the head and the base branch; null when the checkout lacks history. */
      base: string | null
      baseRef: string
    }

/** What the workspace's HEAD is: its sha and its parents', read from the commit object. */
export interface WorkspaceCommit {
  sha: string
  parents: string[]
}

/**
 * The kind of checkout the workspace holds for a pull request whose head is `head`, or null when
 * it is neither the head nor a merge of it (another commit was checked out).
 */
export function workspaceKind(w: WorkspaceCommit, head: string): 'test-merge' | 'head' | null {
  if (sameSha(w.sha, head)) return 'head'
  if (w.parents.length === 2 && sameSha(w.parents[1], head)) return 'test-merge'
  return null
}

const sameSha = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase()

/** The parents named in a raw commit object (`git cat-file commit`), in order. */
export const commitParents = (raw: string): string[] =>
  raw
    .slice(0, raw.indexOf('\n\n') === -1 ? raw.length : raw.indexOf('\n\n'))
    .split('\n')
    .filter(l => l.startsWith('parent '))
    .map(l => l.slice('parent '.length).trim())
