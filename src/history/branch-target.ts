import type { AppendOutcome } from './dir-store'
import type { GitIdentity } from './git'
import type { Render } from './render-hook'

export interface BranchTarget {
  /** Remote URL or local path (a bare repository, or one whose checkout is not this branch). */
  repo: string
  /** Created as an orphan branch when absent. */
  branch: string
  /** History directory inside the branch, e.g. `benchmarks`. */
  dir: string
  token?: string
  /** A directory to keep the clone in; reusing it makes later fetches incremental. */
  workDir?: string
  identity?: GitIdentity
  /** How long rejected pushes are retried, from the first attempt (ms); 20 minutes by default. */
  retryForMs?: number
  /** Re-renders README/charts/dashboard so they land in the same commit as the entries. */
  render?: Render
  /** Write onto a branch that exists but holds no history (a site, or code). Off by default. */
  adopt?: boolean
  /** Where attempts, retries and warnings are reported; standard error (terminal-safe) by default. */
  log?: (line: string) => void
}

export interface BranchCommit {
  /** The commit now at the branch tip, or null when the branch is still absent. */
  commit: string | null
  /** False when there was nothing to change (e.g. every entry was stored already). */
  pushed: boolean
  attempts: number
}

/** A branch append's outcome; `missing` names entries the index lists but the branch lacks. */
export type BranchAppend = BranchCommit &
  AppendOutcome & {
    missing: string[]
    /** Entries on the branch after the append, by the index (null when nothing was written). */
    total: number | null
  }

/** Where the history lives: the fields of a BranchTarget that reading needs. */
export type BranchLocation = Pick<
  BranchTarget,
  'repo' | 'branch' | 'dir' | 'token' | 'workDir' | 'identity' | 'log'
>
