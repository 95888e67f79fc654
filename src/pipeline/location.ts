import * as path from 'node:path'
import {
  appendToBranch,
  appendToDir,
  pruneBranch,
  pruneDir,
  type AppendOutcome,
  type BranchLocation,
  type HistoryEntry,
  type PruneOutcome,
  type PruneRule,
  type Render
} from '../history'

/** Where a history lives: a plain directory, or a directory on a branch of a git repository. */
export type HistoryLocation = { kind: 'dir'; dir: string } | ({ kind: 'branch' } & BranchLocation)

/** What a front end knows of the history's place, before defaults. */
interface LocationSpec {
  /** A git repository (URL or local path); null keeps the history in a plain directory. */
  repository: string | null
  branch: string
  dir: string
  token: string | null
}

export type BranchHistory = Extract<HistoryLocation, { kind: 'branch' }>

export const branchLocation = (spec: LocationSpec & { repository: string }): BranchHistory => ({
  kind: 'branch',
  repo: spec.repository,
  branch: spec.branch,
  dir: spec.dir,
  token: spec.token ?? undefined
})

export const historyLocation = (spec: LocationSpec): HistoryLocation =>
  spec.repository
    ? branchLocation({ ...spec, repository: spec.repository })
    : { kind: 'dir', dir: spec.dir }

export const describeLocation = (l: HistoryLocation): string =>
  l.kind === 'dir' ? path.resolve(l.dir) : `${l.repo} ${l.branch}:${l.dir}`

/** Appends entries and re-renders the report in the same write (one commit on a branch). */
export function appendEntries(
  entries: HistoryEntry[],
  location: HistoryLocation,
  render: Render
): Promise<AppendOutcome> {
  if (location.kind === 'dir') return appendToDir({ dir: location.dir, entries, render })
  return appendToBranch({ ...location, entries, render })
}

/** Deletes entries by rule and re-renders, or with dryRun only says what would go. */
export function pruneEntries(
  location: HistoryLocation,
  rule: PruneRule,
  dryRun: boolean,
  render: Render
): Promise<PruneOutcome> {
  if (location.kind === 'dir') return pruneDir({ dir: location.dir, rule, dryRun, render })
  return pruneBranch({ ...location, rule, dryRun, render })
}
