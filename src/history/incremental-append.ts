import * as path from 'node:path'
import type { BranchTarget } from './branch-target'
import {
  caseIdOf,
  caseTrees,
  checkHistoryBranch,
  encoded,
  fetchTreesOn,
  historyTree,
  itemsAt,
  monthsUnder,
  partialDepth,
  under
} from './branch-trees'
import type { Clone } from './clone'
import { checkContinuity } from './continuity'
import type { AppendOutcome } from './dir-store'
import { HistoryError } from './errors'
import { ENTRIES_DIR, entryPath, monthDir, monthOf, serializeEntry } from './layout'
import {
  CaseIndexSchema,
  idsOfFiles,
  INDEX_DIR,
  INDEX_SCHEMA,
  monthIndexPath,
  MonthIndexSchema,
  monthSummaries,
  parseIndex,
  serializeIndex,
  summaryOf,
  type CaseIndex,
  type MonthIndex
} from './manifest'
import { expandRanges, toRanges } from './month-ranges'
import { listPending, readPending } from './pending'
import { appendMessage, planAppend } from './plan'
import { parseEntry } from './read'
import { renderReport } from './render-report'
import type { HistoryEntry } from './schema'
import {
  editTree,
  flushObjects,
  itemAt,
  lsTree,
  lsTrees,
  readBlobs,
  writeBlob,
  type TreeChanges
} from './tree'
import { checkAdded } from './verify'

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

/** A tip fetched (with the pending refs) by the caller, and its tree; nulls: no branch yet. */
export interface Fetched {
  tip: string | null
  root: string | null
}

/** One case and month an attempt looks into: its files at the tip, and what the index expects. */
interface MonthState {
  caseId: string
  month: string
  /** File name → blob id (mode checked: no links). */
  files: Map<string, string>
  expected: MonthIndex | null
  /** File name → the entry's summary: from the month index, or read from files it lacks. */
  summaries: Map<string, HistoryEntry>
}

const monthKey = (caseId: string, month: string) => `${caseId}\0${month}`

/**
 * One incremental append on a partial clone. It fetches the trees down to each case's list of
 * months and each case's index head (a few hundred bytes), and for the months it touches their
 * tree and month index, whose entry summaries give the month's dashboard data. Stored entries are
 * not read again: the index heads say whether anything changed behind this tool's back (then that
 * case's months are all compared, and the files of a month whose tree changed are read again).
 *
 * Entries other writers parked on pending refs (see pending.ts) are folded into the same commit,
 * their blobs reused, and those refs deleted by its push. When every entry of `target.entries` is
 * on the branch already (some other writer folded them), nothing is committed.
 */
export async function incrementalAttempt(
  clone: Clone,
  target: BranchTarget & { entries: HistoryEntry[]; message?: string; parkedAt?: string },
  withReport: boolean,
  log: (line: string) => void,
  fetched: Fetched | null = null
): Promise<Attempt> {
  const { git, dir } = clone
  const fetchTip = () => clone.fetchTip(partialDepth(dir), { pending: true })
  // The first attempt's tip was fetched, and checked, by the caller.
  const tip = fetched ? fetched.tip : await fetchTip()
  if (!fetched) await checkContinuity(clone, target.branch, tip, fetchTip)
  const refs = await listPending(clone, target.branch)
  // A writer whose parked ref is gone had its entries folded (only a fold deletes pending refs):
  // it checks they are on the branch and reads no one else's.
  const foldedElsewhere = target.parkedAt !== undefined && !refs.has(target.parkedAt)
  const pending = foldedElsewhere ? [] : await readPending(clone, refs)
  const own = new Set(target.entries.map(e => e.id))
  const parked = new Map<string, { entry: HistoryEntry; blob: string }>()
  for (const p of pending)
    for (const x of p.entries) if (!parked.has(x.entry.id)) parked.set(x.entry.id, x)
  // Own entries first (a stored one is never replaced), then what others parked, each id once.
  const entries = [
    ...target.entries,
    ...[...parked.values()].filter(x => !own.has(x.entry.id)).map(x => x.entry)
  ]
  const fold = new Map(pending.map(p => [p.ref, p.oid]))
  const root = fetched
    ? fetched.root
    : tip
      ? (await git(['rev-parse', `${tip}^{tree}`])).trim()
      : null
  const dirTree = root ? await historyTree(git, root, dir) : null
  if (tip) await checkHistoryBranch(clone, target, dirTree)
  const name = (rel: string) => `${target.branch}:${under(dir, rel)}`

  // Every case's index head and directory of month indexes (the trees to this depth are local).
  const trees = await caseTrees(git, dirTree)
  const headBlobs = new Map<string, string>()
  const indexDirs = new Map<string, string>()
  const indexTree = dirTree ? await itemAt(git, dirTree, INDEX_DIR) : null
  for (const i of indexTree?.type === 'tree' ? await lsTree(git, indexTree.oid) : []) {
    if (i.type === 'blob' && i.name.endsWith('.json')) headBlobs.set(i.name.slice(0, -5), i.oid)
    if (i.type === 'tree') indexDirs.set(i.name, i.oid)
  }
  await clone.fetchObjects([...headBlobs.values()])
  const headTexts = await readBlobs(git, [...headBlobs.values()])
  const heads = new Map<string, CaseIndex>()
  for (const [enc, oid] of headBlobs) {
    const file = name(`${INDEX_DIR}/${enc}.json`)
    const head = parseIndex(CaseIndexSchema, file, headTexts.get(oid)!)
    if (encoded(head.caseId) !== enc) {
      throw new HistoryError(file, `indexes case '${head.caseId}', which belongs elsewhere`)
    }
    heads.set(enc, head)
  }

  // Months to look into: those the new entries go to, and every month of a case whose directory
  // changed behind the index (or that misses entries already, so the warning repeats).
  const look = new Map<string, { caseId: string; month: string }>()
  for (const e of entries) {
    const month = monthOf(e.timestampEval)
    look.set(monthKey(e.caseId, month), { caseId: e.caseId, month })
  }
  const audited = new Set<string>()
  for (const enc of new Set([...heads.keys(), ...trees.keys()])) {
    const head = heads.get(enc)
    const actual = trees.get(enc)
    if (head && head.missing === 0 && head.tree === (actual ?? null)) continue
    audited.add(enc)
    const caseId = head?.caseId ?? caseIdOf(enc, name)
    const months = new Set([
      ...(await monthsUnder(clone, actual ?? null, name(`${ENTRIES_DIR}/${enc}`))).keys(),
      ...(await monthsUnder(clone, indexDirs.get(enc) ?? null, name(`${INDEX_DIR}/${enc}`))).keys()
    ])
    for (const month of months) look.set(monthKey(caseId, month), { caseId, month })
  }

  const render = target.render
  const lookList = [...look.values()]
  const monthPath = (l: { caseId: string; month: string }) =>
    `${ENTRIES_DIR}/${encoded(l.caseId)}/${monthDir(l.month)}`
  // The dashboard data's trees come along: they are rewritten below, in the same round trips.
  const found = await itemsAt(clone, dirTree, [
    ...lookList.map(monthPath),
    ...lookList.map(l => monthIndexPath(l.caseId, l.month)),
    ...(render ? lookList.map(l => render.monthDataPath(l.caseId, l.month)) : [])
  ])
  const oidAt = (p: string, type: 'tree' | 'blob'): string | undefined => {
    const item = found.get(p)
    if (item && item.type !== type) {
      throw new HistoryError(name(p), `is a ${item.type} where the history holds a ${type}`)
    }
    return item?.oid
  }
  const indexOids = lookList
    .map(l => oidAt(monthIndexPath(l.caseId, l.month), 'blob'))
    .filter((o): o is string => !!o)
  const monthOids = lookList.map(l => oidAt(monthPath(l), 'tree')).filter((o): o is string => !!o)
  await clone.fetchObjects([...monthOids, ...indexOids])
  const indexTexts = await readBlobs(git, indexOids)

  await lsTrees(git, monthOids)
  const states = new Map<string, MonthState>()
  for (const l of lookList) {
    const oid = oidAt(monthPath(l), 'tree')
    const files = new Map<string, string>()
    for (const item of oid ? await lsTree(git, oid) : []) {
      const rel = `${monthPath(l)}/${item.name}`
      if (item.mode !== '100644' && item.mode !== '100755') {
        throw new HistoryError(
          name(rel),
          'is not a plain file (a link or a directory); a history holds plain files only'
        )
      }
      files.set(item.name, item.oid)
    }
    const mPath = name(monthIndexPath(l.caseId, l.month))
    const before = oidAt(monthIndexPath(l.caseId, l.month), 'blob')
    const expected = before ? parseIndex(MonthIndexSchema, mPath, indexTexts.get(before)!) : null
    if (expected && (expected.caseId !== l.caseId || expected.month !== l.month)) {
      throw new HistoryError(mPath, `indexes case '${expected.caseId}', ${expected.month}`)
    }
    const summaries = expected ? monthSummaries(mPath, expected) : new Map<string, HistoryEntry>()
    // A month changed behind the index (hand edit, force-push) is read and validated again.
    if (expected?.tree !== (oid ?? null)) for (const file of files.keys()) summaries.delete(file)
    states.set(monthKey(l.caseId, l.month), { ...l, files, expected, summaries })
  }
  await summariseUnlisted(clone, [...states.values()], name)

  const plan = planAppend(
    e =>
      states
        .get(monthKey(e.caseId, monthOf(e.timestampEval)))!
        .files.has(path.posix.basename(entryPath(e))),
    entries
  )
  const present = new Set(plan.present)
  const ownStored = target.entries.length > 0 && target.entries.every(e => present.has(e.id))
  const renderOnly = withReport && target.entries.length === 0
  if (ownStored || (plan.add.length === 0 && !renderOnly)) {
    const total = [...heads.values()].reduce((n, h) => n + h.entries - h.missing, 0)
    const outcome = { added: [], present: plan.present, all: [], missing: [], total }
    return { tip, commit: null, added: new Map(), fold: new Map(), outcome }
  }
  const changes: TreeChanges = new Map()
  const added = new Map<string, string>()
  for (const e of plan.add) {
    const rel = entryPath(e)
    const blob = parked.get(e.id)?.blob ?? (await writeBlob(git, serializeEntry(e)))
    changes.set(rel, blob)
    added.set(rel, blob)
  }

  // Month indexes and dashboard data of the months looked into; the missing are named and kept.
  const missing: string[] = []
  const newHeads = new Map<string, CaseIndex>()
  const monthChanges = new Map<string, Map<string, string | null>>()
  for (const s of states.values()) {
    const enc = encoded(s.caseId)
    const newHere = plan.add.filter(
      x => x.caseId === s.caseId && monthOf(x.timestampEval) === s.month
    )
    const fileChanges: TreeChanges = new Map(
      newHere.map(e => [path.posix.basename(entryPath(e)), added.get(entryPath(e))!])
    )
    const monthTree = await editTree(git, oidAt(monthPath(s), 'tree') ?? null, fileChanges)
    const names = new Set([...s.files.keys(), ...fileChanges.keys()])
    const entries = { ...(s.expected?.entries ?? {}), ...idsOfFiles([...names]) }
    const gone = Object.keys(entries).filter(f => !names.has(f))
    missing.push(...gone.map(f => entries[f]))
    for (const e of newHere) s.summaries.set(path.posix.basename(entryPath(e)), summaryOf(e))
    const summaries = Object.fromEntries(Object.keys(entries).map(f => [f, s.summaries.get(f)!]))
    const index: MonthIndex = {
      schema: INDEX_SCHEMA,
      caseId: s.caseId,
      month: s.month,
      tree: monthTree,
      entries,
      summaries
    }
    changes.set(monthIndexPath(s.caseId, s.month), await writeBlob(git, serializeIndex(index)))
    const perCase = monthChanges.get(enc) ?? new Map()
    perCase.set(s.month, monthTree)
    monthChanges.set(enc, perCase)
    const head = newHeads.get(enc) ?? {
      schema: INDEX_SCHEMA,
      caseId: s.caseId,
      tree: null,
      // An audited case is counted afresh, month by month; others add what they append.
      entries: audited.has(enc) ? 0 : (heads.get(enc)?.entries ?? 0),
      missing: audited.has(enc) ? 0 : (heads.get(enc)?.missing ?? 0),
      months: audited.has(enc) ? [] : (heads.get(enc)?.months ?? [])
    }
    head.entries += audited.has(enc) ? Object.keys(entries).length : newHere.length
    head.missing += audited.has(enc) ? gone.length : 0
    if (Object.keys(entries).length > 0)
      head.months = toRanges([...expandRanges(head.months), s.month])
    newHeads.set(enc, head)
    if (render) {
      // From the summaries, not the previous file: nothing to fetch, and the file heals itself.
      const dPath = render.monthDataPath(s.caseId, s.month)
      const data = render.mergeMonthData(name(dPath), s.caseId, s.month, null, [
        ...s.summaries.values()
      ])
      changes.set(dPath, await writeBlob(git, data))
    }
  }
  for (const [enc, head] of newHeads) {
    const months: TreeChanges = new Map(
      [...(monthChanges.get(enc) ?? [])].map(([m, t]) => [monthDir(m), t ? { tree: t } : null])
    )
    head.tree = await editTree(git, trees.get(enc) ?? null, months)
    changes.set(`${INDEX_DIR}/${enc}.json`, await writeBlob(git, serializeIndex(head)))
  }
  if (missing.length > 0) {
    log(
      `WARNING: ${target.branch}:${dir} lacks ${missing.length} entries its index lists: ${missing.join(', ')}. ` +
        'A force-push or a hand edit removed them. They stay in the index and the dashboard data so the loss stays visible; ' +
        `restore them from an earlier commit of ${target.branch}, or delete them on purpose with prune.`
    )
  }

  const allHeads = new Map([...heads, ...newHeads])
  const total = [...allHeads.values()].reduce((n, h) => n + h.entries - h.missing, 0)
  if (withReport && render) {
    const cases = [...allHeads.values()].map(head => ({
      caseId: head.caseId,
      total: head.entries - head.missing,
      months: expandRanges(head.months),
      known: new Map(
        [...states.values()]
          .filter(s => s.caseId === head.caseId)
          .map(s => [s.month, [...s.summaries.values()]])
      )
    }))
    const locate = async (paths: string[]) => {
      const items = await itemsAt(clone, dirTree, paths)
      return new Map([...items].filter(([, i]) => i.type === 'blob').map(([p, i]) => [p, i.oid]))
    }
    const report = await renderReport(clone, cases, render, name, locate)
    for (const [rel, blob] of report) changes.set(rel, blob)
  }

  await fetchTreesOn(clone, dirTree, [...changes.keys()])
  const prefixed: TreeChanges = new Map([...changes].map(([rel, oid]) => [under(dir, rel), oid]))
  const newRoot = await editTree(git, root, prefixed)
  if (!newRoot || newRoot === root) {
    const outcome = { added: [], present: plan.present, all: [], missing, total }
    return { tip, commit: null, added, fold: new Map(), outcome }
  }
  await checkAdded(git, newRoot, dir, added)
  const folded = plan.add.some(e => !own.has(e.id))
  const message =
    plan.add.length === 0
      ? 'history: render the report'
      : folded
        ? appendMessage(plan.add)
        : (target.message ?? appendMessage(plan.add))
  const parents = tip ? ['-p', tip] : []
  await flushObjects(git)
  const commit = (await git(['commit-tree', newRoot, ...parents, '-m', message])).trim()
  return {
    tip,
    commit,
    added,
    fold,
    outcome: {
      added: plan.add.map(e => e.id),
      present: plan.present,
      all: plan.add,
      missing,
      total
    }
  }
}

/**
 * Summaries of files a month holds that its index has none for (a month changed behind the index,
 * or one it has never seen): read in one fetch, validated as stored entries are.
 */
async function summariseUnlisted(
  clone: Clone,
  states: MonthState[],
  name: (rel: string) => string
): Promise<void> {
  const unlisted = states.flatMap(s =>
    [...s.files].filter(([file]) => !s.summaries.has(file)).map(([file, oid]) => ({ s, file, oid }))
  )
  if (unlisted.length === 0) return
  await clone.fetchObjects(unlisted.map(u => u.oid))
  const texts = await readBlobs(
    clone.git,
    unlisted.map(u => u.oid)
  )
  for (const { s, file, oid } of unlisted) {
    const rel = `${ENTRIES_DIR}/${encoded(s.caseId)}/${monthDir(s.month)}/${file}`
    const entry = parseEntry(name(rel), texts.get(oid)!)
    if (entryPath(entry) !== rel) {
      throw new HistoryError(
        name(rel),
        `holds entry '${entry.id}', which belongs at ${entryPath(entry)}`
      )
    }
    s.summaries.set(file, summaryOf(entry))
  }
}
