import * as fs from 'node:fs'
import * as path from 'node:path'
import type { BranchAppend, BranchTarget } from './branch-target'
import { caseIdOf, caseTrees, checkHistoryBranch, historyTree, monthsUnder } from './branch-trees'
import type { Clone } from './clone'
import { applyAppend, type AppendOutcome } from './dir-store'
import {
  caseIndexPath,
  idsOfFiles,
  INDEX_DIR,
  INDEX_SCHEMA,
  monthIndexPath,
  serializeIndex,
  summaryOf,
  type CaseIndex,
  type MonthIndex
} from './manifest'
import { ENTRIES_DIR, entryPath, monthDir } from './layout'
import { toRanges } from './month-ranges'
import { appendMessage } from './plan'
import { checkContinuity } from './continuity'
import { pushLoop } from './push-loop'
import type { HistoryEntry } from './schema'
import { lsTree, lsTrees } from './tree'
import { writeInside } from '../safe-write'

/**
 * Writes the index of a checked-out history: one file per case and month, from the trees of
 * `entries/` as staged and the summaries of `all`, the entries read from them. Returns nothing;
 * the files are written into the work tree.
 */
async function writeIndexFiles(clone: Clone, all: HistoryEntry[]): Promise<void> {
  const { git, historyDir, dir } = clone
  fs.rmSync(path.join(historyDir, INDEX_DIR), { recursive: true, force: true })
  await git(['add', '-A', '-f', '--', '.'])
  const root = (await git(['write-tree'])).trim()
  const trees = await caseTrees(git, await historyTree(git, root, dir))
  const byPath = new Map(all.map(e => [entryPath(e), e]))
  for (const [enc, caseTree] of trees) {
    const caseId = caseIdOf(enc, rel => `${clone.label}/${rel}`)
    const months = await monthsUnder(clone, caseTree, `${clone.label}/${ENTRIES_DIR}/${enc}`)
    let count = 0
    await lsTrees(
      git,
      [...months.values()].map(m => m.oid)
    )
    for (const [month, { oid: tree }] of months) {
      const files = (await lsTree(git, tree)).map(i => i.name)
      count += files.length
      const entries = idsOfFiles(files)
      const summaries = Object.fromEntries(
        files.map(f => {
          const rel = `${ENTRIES_DIR}/${enc}/${monthDir(month)}/${f}`
          const entry = byPath.get(rel)
          if (!entry) throw new Error(`internal error: ${rel} was not read`)
          return [f, summaryOf(entry)]
        })
      )
      const index: MonthIndex = { schema: INDEX_SCHEMA, caseId, month, tree, entries, summaries }
      writeInside(historyDir, monthIndexPath(caseId, month), serializeIndex(index))
    }
    const head: CaseIndex = {
      schema: INDEX_SCHEMA,
      caseId,
      tree: caseTree,
      entries: count,
      missing: 0,
      months: toRanges(months.keys())
    }
    writeInside(historyDir, caseIndexPath(caseId), serializeIndex(head))
  }
}

/**
 * One read-modify-push transaction on a full checkout, repeated on a fresh tip while pushes are
 * rejected: reads and validates the whole history, applies `change`, renders everything, rebuilds
 * the index, and stages with `add -f`, so no ignore rule can leave a file out.
 */
export async function fullUpdate(
  clone: Clone,
  target: BranchTarget,
  log: (line: string) => void,
  change: (
    historyDir: string,
    label: string
  ) => { changed: boolean; all: HistoryEntry[]; message: string }
): Promise<{ commit: string | null; attempts: number; pushed: boolean }> {
  const { git, historyDir, label } = clone
  const landed = await pushLoop(clone, target, log, async () => {
    const tip = await clone.checkout()
    await checkContinuity(clone, target.branch, tip, () => clone.checkout())
    if (tip) {
      const root = (await git(['rev-parse', `${tip}^{tree}`])).trim()
      await checkHistoryBranch(clone, target, await historyTree(git, root, clone.dir))
    }
    const c = change(historyDir, label)
    if (!c.changed) return { tip, commit: null }
    if (target.render) await target.render.full(historyDir, c.all)
    await writeIndexFiles(clone, c.all)
    await git(['add', '-A', '-f', '--', '.'])
    const tree = (await git(['write-tree'])).trim()
    const commit = (
      await git(['commit-tree', tree, ...(tip ? ['-p', tip] : []), '-m', c.message])
    ).trim()
    return { tip, commit }
  })
  return {
    commit: landed.result.commit ?? landed.result.tip,
    attempts: landed.attempts,
    pushed: landed.pushed
  }
}

export async function fullAppend(
  clone: Clone,
  target: BranchTarget & { entries: HistoryEntry[]; message?: string },
  log: (line: string) => void
): Promise<BranchAppend> {
  let outcome: AppendOutcome = { added: [], present: [], all: [] }
  const commit = await fullUpdate(clone, target, log, (historyDir, label) => {
    outcome = applyAppend(historyDir, target.entries, label)
    const added = new Set(outcome.added)
    return {
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
