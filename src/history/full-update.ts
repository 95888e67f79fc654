import type { BranchAppend, BranchCommit, BranchTarget } from './branch-target'
import { caseIdOf, caseTrees, checkHistoryBranch, monthsUnder } from './branch-trees'
import { checkContinuity } from './continuity'
import { applyAppend } from './dir-store'
import { fileChanges } from './file-changes'
import { indexCase, type MonthInput } from './index-build'
import { summaryOf } from './manifest'
import { appendMessage } from './plan'
import type { HistoryEntry } from './schema'
import {
  commitTree,
  editTree,
  filesUnder,
  lsTree,
  lsTrees,
  pushLoop,
  treeAt,
  treeOf,
  writeTree,
  type Clone,
  type TreeChanges
} from '../store'
import { ENTRIES_DIR, entryPath, INDEX_DIR, isReplaced, monthDir, onBranch } from '../site/layout'
import type { Site } from '../site/site'

/**
 * The index of a checked-out history, afresh: one file per case and month, from the trees of
 * `entries/` in `root` (the work tree as staged) and the summaries of `all`, the entries read.
 */
async function indexFiles(clone: Clone, root: string, all: HistoryEntry[]): Promise<Site> {
  const { git, dir, label } = clone
  const trees = await caseTrees(git, await treeAt(git, root, dir))
  const byPath = new Map(all.map(e => [entryPath(e), e]))
  const files: Site = new Map()
  for (const [enc, caseTree] of trees) {
    const caseId = caseIdOf(enc, rel => `${label}/${rel}`)
    const months = await monthsUnder(clone, caseTree, `${label}/${ENTRIES_DIR}/${enc}`)
    await lsTrees(
      git,
      [...months.values()].map(m => m.oid)
    )
    const inputs: MonthInput[] = []
    for (const [month, { oid: tree }] of months) {
      const names = (await lsTree(git, tree)).map(i => i.name)
      const summaries = new Map(
        names.map(f => {
          const rel = `${ENTRIES_DIR}/${enc}/${monthDir(month)}/${f}`
          const entry = byPath.get(rel)
          if (!entry) throw new Error(`internal error: ${rel} was not read`)
          return [f, summaryOf(entry)]
        })
      )
      inputs.push({ month, tree, files: names, added: 0, expected: null, summaries })
    }
    for (const [rel, bytes] of indexCase(caseId, caseTree, null, inputs).files) {
      files.set(rel, bytes)
    }
  }
  return files
}

/**
 * What a whole write changes beyond the entries: the index rebuilt (its directory replaced), and
 * the whole site with the charts and month data it no longer holds removed.
 */
async function siteChanges(clone: Clone, root: string, index: Site, site: Site | null) {
  const { git, dir } = clone
  const changes: TreeChanges = new Map([[INDEX_DIR, null]])
  if (site) {
    const rendered = ['charts', 'data'].map(sub => onBranch(dir, sub))
    for (const file of await filesUnder(git, root, rendered)) {
      const rel = dir === '.' ? file : file.slice(dir.length + 1)
      if (isReplaced(rel) && !site.has(rel)) changes.set(rel, null)
    }
  }
  for (const [rel, blob] of await fileChanges(git, index)) changes.set(rel, blob)
  for (const [rel, blob] of await fileChanges(git, site ?? new Map())) changes.set(rel, blob)
  return new Map([...changes].map(([rel, c]) => [onBranch(dir, rel), c]))
}

/** What a change made of the checked-out history, and the caller's own outcome of it. */
export interface FullChange<O> {
  /** False: nothing to commit. */
  changed: boolean
  /** The entries after the change. */
  all: HistoryEntry[]
  message: string
  outcome: O
}

/**
 * One read-modify-push transaction on a full checkout, repeated on a fresh tip while pushes are
 * rejected: reads and validates the whole history, applies `change` to the entries and stages
 * them with `add -f` (no ignore rule can leave a file out), then applies the index and the whole
 * site as tree edits. Returns the outcome of the change the landed (or last) attempt made.
 */
export async function fullUpdate<O>(
  clone: Clone,
  target: BranchTarget,
  log: (line: string) => void,
  change: (historyDir: string, label: string) => FullChange<O>
): Promise<BranchCommit & { outcome: O }> {
  const { git, checkoutDir, label } = clone
  const landed = await pushLoop(clone, target, log, async () => {
    const tip = await clone.checkout()
    await checkContinuity(clone, target.branch, tip, () => clone.checkout())
    if (tip) {
      const root = await treeOf(git, tip)
      await checkHistoryBranch(clone, target, await treeAt(git, root, clone.dir))
    }
    const c = change(checkoutDir, label)
    if (!c.changed) return { tip, commit: null, outcome: c.outcome }
    const staged = await clone.stage()
    const site = target.render ? await target.render.full(c.all) : null
    const changes = await siteChanges(clone, staged, await indexFiles(clone, staged, c.all), site)
    const tree = (await editTree(git, staged, changes)) ?? writeTree(git, [])
    return { tip, commit: await commitTree(git, tree, tip, c.message), outcome: c.outcome }
  })
  return {
    commit: landed.result.commit ?? landed.result.tip,
    attempts: landed.attempts,
    pushed: landed.pushed,
    outcome: landed.result.outcome
  }
}

export async function fullAppend(
  clone: Clone,
  target: BranchTarget & { entries: HistoryEntry[]; message?: string },
  log: (line: string) => void
): Promise<BranchAppend> {
  const { outcome, ...commit } = await fullUpdate(clone, target, log, (historyDir, label) => {
    const outcome = applyAppend(historyDir, target.entries, label)
    const added = new Set(outcome.added)
    return {
      outcome,
      // The first write of this version indexes the branch even when nothing is new.
      changed: true,
      all: outcome.all,
      message:
        added.size > 0
          ? (target.message ?? appendMessage(target.entries.filter(e => added.has(e.id))))
          : 'history: index the history'
    }
  })
  return { ...commit, ...outcome, missing: [], total: outcome.all.length }
}
