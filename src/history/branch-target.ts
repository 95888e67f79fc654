import type { AppendOutcome } from './dir-store'
import type { Render } from './render-hook'
import type { StoreLocation } from '../store'

export interface BranchTarget extends StoreLocation {
  /** History directory inside the branch, e.g. `benchmarks`, as given (see `branchDir`). */
  dir: string
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
