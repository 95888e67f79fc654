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
import { checkRepository, redactUrl } from '../store'
import type { Log } from '../log'

/** Where a history lives: a plain directory, or a directory on a branch of a git repository. */
export type HistoryLocation =
  | { kind: 'dir'; dir: string }
  | ({
      kind: 'branch'
      /** Write onto an existing branch that holds no history yet. */
      adopt?: boolean
    } & BranchLocation)

/** What a front end knows of the history's place, before defaults. */
interface LocationSpec {
  /** A git repository (URL or local path); null keeps the history in a plain directory. */
  repository: string | null
  branch: string
  dir: string
  token: string | null
  adopt?: boolean
}

export type BranchHistory = Extract<HistoryLocation, { kind: 'branch' }>

export const branchLocation = (spec: LocationSpec & { repository: string }): BranchHistory => ({
  kind: 'branch',
  // A repository reaching git as an option (`-…`) or a command (`ext::`) is refused up front.
  repo: checkRepository(spec.repository, 'history-repository'),
  branch: spec.branch,
  dir: spec.dir,
  token: spec.token ?? undefined,
  ...(spec.adopt ? { adopt: true } : {})
})

export const historyLocation = (spec: LocationSpec): HistoryLocation =>
  spec.repository
    ? branchLocation({ ...spec, repository: spec.repository })
    : { kind: 'dir', dir: spec.dir }

/** Where the history is, for messages: a credential inside a repository URL is never printed. */
export const describeLocation = (l: HistoryLocation): string =>
  l.kind === 'dir' ? path.resolve(l.dir) : `${redactUrl(l.repo)} ${l.branch}:${l.dir}`

/** How many entries the history holds after an append, where the store knows. */
export interface Recorded extends AppendOutcome {
  total: number | null
  /** Entries the branch's index lists but the branch lacks (warned about in `log`). */
  missing: string[]
}

/** The branch store reports in lines, warnings prefixed `WARNING: `; a Log shows them as such. */
const storeLog =
  (log: Log) =>
  (line: string): void =>
    line.startsWith('WARNING: ') ? log.warn(line.slice('WARNING: '.length)) : log.info(line)

/** Appends entries and re-renders the report in the same write (one commit on a branch). */
export async function appendEntries(
  entries: HistoryEntry[],
  location: HistoryLocation,
  render: Render,
  /** Where a branch append reports retries and warnings; standard error by default. */
  log?: Log
): Promise<Recorded> {
  if (location.kind === 'dir') {
    const out = await appendToDir({ dir: location.dir, entries, render })
    return { ...out, total: out.all.length, missing: [] }
  }
  return appendToBranch({ ...location, entries, render, log: log && storeLog(log) })
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
