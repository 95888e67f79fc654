import * as path from 'node:path'
import type { BranchTarget } from './branch-target'
import {
  isStored,
  readBranch,
  type Fetched,
  type Heads,
  type MonthState,
  type Tip
} from './branch-read'
import type { AppendOutcome } from './dir-store'
import { fileChanges } from './file-changes'
import { indexCase } from './index-build'
import { summaryOf, type CaseIndex } from './manifest'
import { expandRanges } from '../site/month-ranges'
import { appendMessage, planAppend } from './plan'
import { reportViews, viewsKey } from './report-view'
import { serializeEntry, type HistoryEntry } from './schema'
import {
  commitTree,
  editTree,
  fetchTreesOn,
  itemsAt,
  writeBlob,
  type Clone,
  type TreeChanges
} from '../store'
import { checkAdded } from './verify'
import {
  encodeSegment,
  entryPath,
  monthDataPath,
  monthDir,
  monthOf,
  onBranch
} from '../site/layout'
import type { Site } from '../site/site'

/** The outcome of one attempt: what it would add, and the commit to push (null: nothing to push). */
export interface Attempt {
  tip: string | null
  commit: string | null
  outcome: AppendOutcome & { missing: string[]; total: number | null }
  /** Entry path → blob id of every entry added: checked in the pushed tree. */
  added: Map<string, string>
  /** Pending refs the commit folds (ref → the commit it held): deleted by the same push. */
  fold: Map<string, string>
}

/**
 * The report an earlier attempt of the same append rendered, and what it showed (`viewsKey`): a
 * retry on a new tip applies it again unless the entries it shows changed.
 */
export interface ReportMemo {
  last?: { key: string; site: Site }
}

/** The index after the write: its files, the heads of every case, and the entries it misses. */
interface Indexed {
  files: Map<string, Buffer>
  heads: Map<string, CaseIndex>
  missing: string[]
}

/**
 * One incremental append on a partial clone, in steps: read the tip as `readBranch` does (trees
 * down to each case's months, the index heads, and the months the entries go to), plan what is
 * new, write the entries' blobs, index the months (`indexMonths`), render the dashboard data of
 * those months and the report (`renderSite`), and commit all of it as tree edits
 * (`commitChanges`). Stored entries are not read again.
 *
 * Entries other writers parked on pending refs (see pending-entries.ts) are folded into the same commit,
 * their blobs reused, and those refs deleted by its push. When every entry of `target.entries` is
 * on the branch already (some other writer folded them), nothing is committed.
 */
export async function incrementalAttempt(
  clone: Clone,
  target: BranchTarget & { entries: HistoryEntry[]; message?: string; parkedAt?: string },
  log: (line: string) => void,
  fetched: Fetched | null,
  memo: ReportMemo
): Promise<Attempt> {
  const read = await readBranch(clone, target, fetched, !!target.render)
  const { tip: t, heads: h, months } = read
  const plan = planAppend(isStored(months), t.entries)
  const present = new Set(plan.present)
  const ownStored = target.entries.length > 0 && target.entries.every(e => present.has(e.id))
  if (ownStored || plan.add.length === 0) {
    const total = [...h.heads.values()].reduce((n, x) => n + x.entries - x.missing, 0)
    const outcome = { added: [], present: plan.present, all: [], missing: [], total }
    return { tip: t.tip, commit: null, added: new Map(), fold: new Map(), outcome }
  }
  const added = new Map<string, string>()
  for (const e of plan.add) {
    added.set(
      entryPath(e),
      t.parked.get(e.id)?.blob ?? (await writeBlob(clone.git, serializeEntry(e)))
    )
  }
  const index = await indexMonths(clone, h, read.audited, months, plan.add, added)
  if (index.missing.length > 0) {
    log(
      `WARNING: ${target.branch}:${clone.dir} lacks ${index.missing.length} entries its index lists: ${index.missing.join(', ')}. ` +
        'A force-push or a hand edit removed them. They stay in the index and the dashboard data so the loss stays visible; ' +
        `restore them from an earlier commit of ${target.branch}, or delete them on purpose with prune.`
    )
  }
  const total = [...index.heads.values()].reduce((n, x) => n + x.entries - x.missing, 0)
  const site = await renderSite(clone, target, t, index.heads, months, memo)
  const changes: TreeChanges = new Map([
    ...added,
    ...(await fileChanges(clone.git, index.files)),
    ...(await fileChanges(clone.git, site))
  ])
  const folded = plan.add.some(e => !t.own.has(e.id))
  const message = folded ? appendMessage(plan.add) : (target.message ?? appendMessage(plan.add))
  const commit = await commitChanges(clone, t, changes, added, message)
  const outcome = { added: [], present: plan.present, all: [], missing: index.missing, total }
  if (!commit) return { tip: t.tip, commit: null, added, fold: new Map(), outcome }
  return {
    tip: t.tip,
    commit,
    added,
    fold: t.fold,
    outcome: { ...outcome, added: plan.add.map(e => e.id), all: plan.add }
  }
}

/**
 * Indexes the months looked into, with the entries added (path → blob): each month's new tree,
 * its index (the missing named and kept), and its case's head, moved on from the head at the tip
 * or, for a case audited because it changed behind the index, counted afresh.
 */
async function indexMonths(
  clone: Clone,
  h: Heads,
  audited: Set<string>,
  months: Map<string, MonthState>,
  add: HistoryEntry[],
  added: Map<string, string>
): Promise<Indexed> {
  const byCase = new Map<string, MonthState[]>()
  for (const s of months.values()) byCase.set(s.caseId, [...(byCase.get(s.caseId) ?? []), s])
  const out: Indexed = { files: new Map(), heads: new Map(h.heads), missing: [] }
  for (const [caseId, states] of byCase) {
    const enc = encodeSegment(caseId)
    const inputs = []
    const monthTrees: TreeChanges = new Map()
    for (const s of states) {
      const newHere = add.filter(x => x.caseId === caseId && monthOf(x.timestampEval) === s.month)
      const files: TreeChanges = new Map(
        newHere.map(e => [path.posix.basename(entryPath(e)), added.get(entryPath(e))!])
      )
      const tree = await editTree(clone.git, s.tree, files)
      for (const e of newHere) s.summaries.set(path.posix.basename(entryPath(e)), summaryOf(e))
      const names = new Set([...s.files.keys(), ...files.keys()])
      inputs.push({ ...s, tree, files: names, added: newHere.length })
      monthTrees.set(monthDir(s.month), tree ? { tree } : null)
    }
    const caseTree = await editTree(clone.git, h.trees.get(enc) ?? null, monthTrees)
    const base = audited.has(enc) ? null : (h.heads.get(enc) ?? null)
    const indexed = indexCase(caseId, caseTree, base, inputs)
    for (const [p, bytes] of indexed.files) out.files.set(p, bytes)
    out.heads.set(enc, indexed.head)
    out.missing.push(...indexed.missing)
  }
  return out
}

/**
 * The dashboard data of every month looked into, from its summaries, and README, charts and pages
 * from the summaries of each case's newest months (the months in hand, then older month indexes
 * fetched a round at a time). A retry whose report would show the same entries reuses the site of
 * the attempt before.
 */
async function renderSite(
  clone: Clone,
  target: BranchTarget,
  t: Tip,
  heads: Map<string, CaseIndex>,
  months: Map<string, MonthState>,
  memo: ReportMemo
): Promise<Site> {
  const site: Site = new Map()
  const render = target.render
  if (!render) return site
  for (const s of months.values()) {
    site.set(
      monthDataPath(s.caseId, s.month),
      render.monthData(s.caseId, s.month, [...s.summaries.values()])
    )
  }
  const cases = [...heads.values()].map(head => ({
    caseId: head.caseId,
    total: head.entries - head.missing,
    months: expandRanges(head.months),
    known: new Map(
      [...months.values()]
        .filter(s => s.caseId === head.caseId)
        .map(s => [s.month, [...s.summaries.values()]])
    )
  }))
  const locate = async (paths: string[]) => {
    const items = await itemsAt(clone, t.dirTree, paths)
    return new Map([...items].filter(([, i]) => i.type === 'blob').map(([p, i]) => [p, i.oid]))
  }
  const views = await reportViews(clone, cases, render.recent, t.name, locate)
  const key = viewsKey(views)
  if (memo.last?.key !== key) memo.last = { key, site: await render.report(views) }
  for (const [rel, bytes] of memo.last.site) site.set(rel, bytes)
  return site
}

/**
 * Commits `changes` (paths in the history directory) on the tip as tree edits, after checking
 * every entry added is in the new tree; null when the tree is unchanged.
 */
async function commitChanges(
  clone: Clone,
  t: Tip,
  changes: TreeChanges,
  added: Map<string, string>,
  message: string
): Promise<string | null> {
  const { git, dir } = clone
  await fetchTreesOn(clone, t.dirTree, [...changes.keys()])
  const prefixed: TreeChanges = new Map([...changes].map(([rel, c]) => [onBranch(dir, rel), c]))
  const root = await editTree(git, t.root, prefixed)
  if (!root || root === t.root) return null
  await checkAdded(git, root, dir, added)
  return commitTree(git, root, t.tip, message)
}
