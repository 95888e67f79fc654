import type { BranchAppend, BranchCommit, BranchLocation, BranchTarget } from './branch-target'
import { readBranch, type Fetched } from './branch-read'
import { checkHistoryBranch, partialDepth } from './branch-trees'
import { checkContinuity } from './continuity'
import { applyPrune, type PruneOutcome } from './dir-store'
import { fullAppend, fullUpdate } from './full-update'
import { incrementalAttempt, type Attempt, type ReportMemo } from './incremental-append'
import { branchDir, entryPath, INDEX_DIR, onBranch } from '../site/layout'
import { parkEntries, readPending } from './pending-entries'
import { appendMessage } from './plan'
import { checkAdded } from './verify'
import { EARLIER_INDEX_SCHEMAS, indexSchemaOf } from './manifest'
import type { PruneRule } from './plan'
import { readHistory, sortEntries } from './read'
import type { HistoryEntry } from './schema'
import { terminalSafe } from '../text/terminal'
import {
  checkRepository,
  GitError,
  gitReason,
  itemAt,
  listPending,
  lsTree,
  pushLoop,
  readBlobs,
  treeAt,
  treeOf,
  withClone,
  type Clone
} from '../store'

/*
 * The history on a git branch: append, prune, read, on the git object store (src/store/: the
 * clone, trees, commits, the push loop and pending refs). The work is split by job:
 * `branch-trees` (the history's trees at a tip), `branch-read` (the tip as an append reads it),
 * `incremental-append` (one attempt on a partial clone), `report-view` (what the report shows,
 * from the index's summaries), `index-build` (the index of a write), `pending-entries` (entries
 * parked while they wait), `continuity` (a force-push that lost entries), `verify` (what is
 * pushed), and `full-update` (the whole-checkout path).
 */
export { backoffMs } from '../store'
export type { BranchAppend, BranchCommit, BranchLocation, BranchTarget } from './branch-target'

/** Lines quote git's output and the remote's names: control characters are made visible. */
const stderrLog = (line: string): void => console.error(terminalSafe(line))

/**
 * The store's clone of the history's branch: the history directory normalised and the repository
 * checked, each error naming its input.
 */
async function withBranch<T>(loc: BranchLocation, use: (clone: Clone) => Promise<T>): Promise<T> {
  const dir = branchDir(loc.dir)
  checkRepository(loc.repo, 'history-repository')
  return withClone({ ...loc, dir }, use)
}

/**
 * The validated history at the branch tip (empty when the branch is absent), with the entries
 * parked on pending refs that are not on the branch yet (see pending-entries.ts), oldest first;
 * writes nothing.
 */
export async function readBranchHistory(loc: BranchLocation): Promise<HistoryEntry[]> {
  return withBranch(loc, async clone => {
    const tip = await clone.checkout()
    const stored = tip ? readHistory(clone.checkoutDir, { label: clone.label }) : []
    const ids = new Set(stored.map(e => e.id))
    const waiting: HistoryEntry[] = []
    for (const p of await readPending(clone, await listPending(clone, loc.branch))) {
      for (const { entry } of p.entries) {
        if (ids.has(entry.id)) continue
        ids.add(entry.id)
        waiting.push(entry)
      }
    }
    return waiting.length > 0 ? sortEntries([...stored, ...waiting]) : stored
  })
}

/**
 * Appends entries to the history on a git branch and pushes without force; appending entries that
 * are all stored already pushes nothing. An append reads only what it changes (see
 * docs/history.md): the trees down to each case's years, the index heads, and for the months it
 * touches their trees and month indexes; README, charts and dashboard data are rendered from the
 * index's entry summaries. A rejected push is retried on the new tip, every attempt's commit
 * carrying the report of what that commit holds: the report of the attempt before is applied
 * again unless the entries it shows changed, then it is rendered anew. The first append to a
 * branch written by an earlier version (no index, or one without summaries) reads it all once,
 * moves its entries to this layout and indexes it.
 */
export async function appendToBranch(target: AppendTarget): Promise<BranchAppend> {
  const log = target.log ?? stderrLog
  return withBranch(target, async clone => {
    const { legacy, fetched } = await needsFullIndex(clone, target)
    if (legacy) return fullAppend(clone, target, log)
    const state: AppendState = { first: null, parkTried: false, parked: null, memo: {} }
    const landed = await pushLoop(clone, target, log, n =>
      attemptAppend(clone, target, state, n === 1 ? fetched : null, log)
    )
    return appended(clone, target, state, landed, log)
  })
}

type AppendTarget = BranchTarget & { entries: HistoryEntry[]; message?: string }

/** Entries an append parked on a pending ref: the ref, and entry path → the blob parked. */
interface Parked {
  ref: string
  blobs: Map<string, string>
}

/**
 * What the attempts of one append share. Entries stored before it (by the first attempt's look at
 * the tip) are `present`; the rest are parked on a pending ref after the first rejected push (see
 * pending-entries.ts); a retry reuses the report rendered last when it shows the same entries.
 */
interface AppendState {
  first: Attempt | null
  parkTried: boolean
  parked: Parked | null
  memo: ReportMemo
}

/**
 * One attempt of the push loop: after the first rejected push the entries are parked (once), then
 * the append is attempted on the tip (the first attempt on the tip fetched just now, `fetched`).
 */
async function attemptAppend(
  clone: Clone,
  target: AppendTarget,
  state: AppendState,
  fetched: Fetched | null,
  log: (line: string) => void
): Promise<Attempt> {
  if (state.first && !state.parkTried) {
    state.parkTried = true
    state.parked = await park(clone, target, state.first, log)
  }
  const attempt = await incrementalAttempt(
    clone,
    { ...target, parkedAt: state.parked?.ref },
    log,
    fetched,
    state.memo
  )
  state.first ??= attempt
  return attempt
}

/**
 * Parks the entries the first attempt did not find stored; null when there were none, or when the
 * remote refuses refs outside branches (it still gets the entries, by retrying).
 */
async function park(
  clone: Clone,
  target: AppendTarget,
  first: Attempt,
  log: (line: string) => void
): Promise<Parked | null> {
  const stored = new Set(first.outcome.present)
  const rest = target.entries.filter(e => !stored.has(e.id))
  if (rest.length === 0) return null
  const message = target.message ?? appendMessage(rest)
  try {
    const pending = await parkEntries(clone, target.branch, rest, message)
    log(
      `history: parked ${rest.length} entries at ${pending.ref} until they are folded into ${target.branch}`
    )
    return {
      ref: pending.ref,
      blobs: new Map(rest.map(e => [entryPath(e), pending.blobs.get(e.id)!]))
    }
  } catch (err) {
    if (!(err instanceof GitError)) throw err
    log(`history: could not park the entries (${gitReason(err)}); retrying the append`)
    return null
  }
}

/**
 * The append's outcome once the loop ended: its own commit landed, or its parked entries were
 * folded by another writer (checked to be on the branch, each with its blob).
 */
async function appended(
  clone: Clone,
  target: AppendTarget,
  state: AppendState,
  landed: { result: Attempt; attempts: number; pushed: boolean },
  log: (line: string) => void
): Promise<BranchAppend> {
  const first = state.first!
  const stored = new Set(first.outcome.present)
  const own = target.entries.filter(e => !stored.has(e.id))
  if (state.parked && !landed.pushed) {
    const root = await treeOf(clone.git, landed.result.tip!)
    const where = `${target.branch} after its fold`
    await checkAdded(clone.git, root, clone.dir, state.parked.blobs, where)
    log(`history: entries folded into ${target.branch} by another writer`)
  }
  const out = landed.result.outcome
  const landedOwn = landed.pushed || state.parked !== null
  return {
    commit: landed.result.commit ?? landed.result.tip,
    pushed: landedOwn,
    attempts: landed.attempts,
    added: landedOwn ? own.map(e => e.id) : [],
    present: first.outcome.present.filter(id => target.entries.some(e => e.id === id)),
    all: landedOwn ? own : [],
    missing: out.missing,
    total: out.total
  }
}

/**
 * Pre-flight of a write: the reads an append makes before it writes (the tip and its known ref,
 * the index heads, and any case changed behind the index), nothing written or pushed, so a branch
 * the append would refuse (rewritten, not a history, a corrupt or newer index or entry) is named
 * before the suite runs. A branch written by an earlier version is read in full, as its first
 * append will.
 */
export async function checkBranchWritable(target: BranchTarget): Promise<void> {
  await withBranch(target, async clone => {
    const { legacy, fetched } = await needsFullIndex(clone, target)
    if (legacy) {
      await clone.checkout()
      readHistory(clone.checkoutDir, { label: clone.label })
      return
    }
    await readBranch(clone, { ...target, entries: [] }, fetched, false)
  })
}

/**
 * True when the branch was written by an earlier version: entries but no index, or an index of an
 * earlier layout or without summaries (`history-index@1`, `@2`). Either is read in full once,
 * moved to the current layout and indexed afresh.
 */
async function needsFullIndex(
  clone: Clone,
  target: BranchTarget
): Promise<{ legacy: boolean; fetched: Fetched }> {
  const fetchTip = () => clone.fetchTip(partialDepth(clone.dir), { pending: true })
  const tip = await fetchTip()
  await checkContinuity(clone, target.branch, tip, fetchTip)
  if (!tip) return { legacy: false, fetched: { tip: null, root: null } }
  const root = await treeOf(clone.git, tip)
  const fetched = { tip, root }
  const found = await checkHistoryBranch(clone, target, await treeAt(clone.git, root, clone.dir))
  if (!found.index) return { legacy: found.entries, fetched }
  const index = await itemAt(clone.git, root, onBranch(clone.dir, INDEX_DIR))
  const heads = index?.type === 'tree' ? await lsTree(clone.git, index.oid) : []
  const blobs = heads.filter(h => h.type === 'blob').map(h => h.oid)
  await clone.fetchObjects(blobs)
  const texts = await readBlobs(clone.git, blobs)
  return {
    legacy: [...texts.values()].some(t => EARLIER_INDEX_SCHEMAS.includes(indexSchemaOf(t) ?? '')),
    fetched
  }
}

/** Deletes the entries the rule selects from the history on a git branch, in one commit. */
export async function pruneBranch(
  target: BranchTarget & { rule: PruneRule; dryRun?: boolean }
): Promise<BranchCommit & PruneOutcome> {
  const log = target.log ?? stderrLog
  const { outcome, ...commit } = await withBranch(target, clone =>
    fullUpdate(clone, target, log, (historyDir, label) => {
      const outcome = applyPrune(historyDir, target.rule, target.dryRun ?? false, label)
      const cases = [...new Set(outcome.removed.map(e => e.caseId))].sort().join(',')
      const n = outcome.removed.length
      return {
        outcome,
        changed: !target.dryRun && n > 0,
        all: outcome.all,
        message: `history: prune ${n} ${n === 1 ? 'entry' : 'entries'} of cases ${cases}`
      }
    })
  )
  return { ...commit, ...outcome }
}
