import * as path from 'node:path'
import type { BranchTarget } from './branch-target'
import { caseIdOf, caseTrees, checkHistoryBranch, monthsUnder, partialDepth } from './branch-trees'
import { checkContinuity } from './continuity'
import { HistoryError } from './errors'
import {
  CaseIndexSchema,
  MonthIndexSchema,
  monthSummaries,
  parseIndex,
  summaryOf,
  type CaseIndex,
  type MonthIndex
} from './manifest'
import { readPending } from './pending-entries'
import { parseEntry } from './read'
import type { HistoryEntry } from './schema'
import {
  itemAt,
  itemsAt,
  listPending,
  lsTree,
  lsTrees,
  readBlobs,
  treeAt,
  treeOf,
  type Clone
} from '../store'
import {
  encodeSegment,
  ENTRIES_DIR,
  entryPath,
  INDEX_DIR,
  monthDataPath,
  monthDir,
  monthIndexPath,
  monthOf,
  onBranch
} from '../site/layout'

/**
 * The tip as an incremental append reads it, on a partial clone, step by step: the tip and the
 * entries parked beside it (`readTip`), each case's index head (`readHeads`), the months to look
 * into (`monthsToRead`), and those months' files, indexes and summaries (`readMonths`). No stored
 * entry is read unless its month changed behind the index. The pre-flight of a recording run
 * makes the same reads (`readBranch`).
 */

/** A tip fetched (with the pending refs) by the caller, and its tree; nulls: no branch yet. */
export interface Fetched {
  tip: string | null
  root: string | null
}

type Target = BranchTarget & { entries: HistoryEntry[]; parkedAt?: string }

/** The tip, and what this attempt would write onto it. */
export interface Tip extends Fetched {
  /** The history directory's tree at the tip. */
  dirTree: string | null
  /** The append's own entries first (a stored one is never replaced), then those others parked. */
  entries: HistoryEntry[]
  own: Set<string>
  /** Entries parked on pending refs, by id, with the blob each was parked with. */
  parked: Map<string, { entry: HistoryEntry; blob: string }>
  /** Pending refs folded by this attempt's commit (ref → the commit it held). */
  fold: Map<string, string>
  /** How errors name a file of the history directory: `gh-pages:benchmarks/…`. */
  name: (rel: string) => string
}

/** Each case's index head and directories, by encoded case name. */
export interface Heads {
  heads: Map<string, CaseIndex>
  /** `entries/<case>` trees at the tip. */
  trees: Map<string, string>
  /** `index/<case>` trees at the tip. */
  indexDirs: Map<string, string>
}

/** One case and month an attempt looks into: its files at the tip, and what the index expects. */
export interface MonthState {
  caseId: string
  month: string
  /** The month's directory of entries at the tip (null: none yet). */
  tree: string | null
  /** File name → blob id (mode checked: no links). */
  files: Map<string, string>
  expected: MonthIndex | null
  /** File name → the entry's summary: from the month index, or read from files it lacks. */
  summaries: Map<string, HistoryEntry>
}

export const monthKey = (caseId: string, month: string): string => `${caseId}\0${month}`
export const monthPath = (caseId: string, month: string): string =>
  `${ENTRIES_DIR}/${encodeSegment(caseId)}/${monthDir(month)}`

/**
 * The tip (fetched here unless the caller did, with its known ref checked), the pending refs and
 * their entries. A writer whose parked ref is gone had its entries folded (only a fold deletes
 * pending refs): it checks they are on the branch and reads no one else's.
 */
export async function readTip(clone: Clone, target: Target, fetched: Fetched | null): Promise<Tip> {
  const { git, dir } = clone
  const fetchTip = () => clone.fetchTip(partialDepth(dir), { pending: true })
  const tip = fetched ? fetched.tip : await fetchTip()
  if (!fetched) await checkContinuity(clone, target.branch, tip, fetchTip)
  const refs = await listPending(clone, target.branch)
  const foldedElsewhere = target.parkedAt !== undefined && !refs.has(target.parkedAt)
  const pending = foldedElsewhere ? [] : await readPending(clone, refs)
  const own = new Set(target.entries.map(e => e.id))
  const parked = new Map<string, { entry: HistoryEntry; blob: string }>()
  for (const p of pending)
    for (const x of p.entries) if (!parked.has(x.entry.id)) parked.set(x.entry.id, x)
  const entries = [
    ...target.entries,
    ...[...parked.values()].filter(x => !own.has(x.entry.id)).map(x => x.entry)
  ]
  const root = fetched ? fetched.root : tip ? await treeOf(git, tip) : null
  const dirTree = root ? await treeAt(git, root, dir) : null
  if (tip) await checkHistoryBranch(clone, target, dirTree)
  const name = (rel: string) => `${target.branch}:${onBranch(dir, rel)}`
  const fold = new Map(pending.map(p => [p.ref, p.oid]))
  return { tip, root, dirTree, entries, own, parked, fold, name }
}

/** Every case's index head and directory of month indexes (the trees to this depth are local). */
export async function readHeads(clone: Clone, t: Tip): Promise<Heads> {
  const { git } = clone
  const trees = await caseTrees(git, t.dirTree)
  const headBlobs = new Map<string, string>()
  const indexDirs = new Map<string, string>()
  const indexTree = t.dirTree ? await itemAt(git, t.dirTree, INDEX_DIR) : null
  for (const i of indexTree?.type === 'tree' ? await lsTree(git, indexTree.oid) : []) {
    if (i.type === 'blob' && i.name.endsWith('.json')) headBlobs.set(i.name.slice(0, -5), i.oid)
    if (i.type === 'tree') indexDirs.set(i.name, i.oid)
  }
  await clone.fetchObjects([...headBlobs.values()])
  const headTexts = await readBlobs(git, [...headBlobs.values()])
  const heads = new Map<string, CaseIndex>()
  for (const [enc, oid] of headBlobs) {
    const file = t.name(`${INDEX_DIR}/${enc}.json`)
    const head = parseIndex(CaseIndexSchema, file, headTexts.get(oid)!)
    if (encodeSegment(head.caseId) !== enc) {
      throw new HistoryError(file, `indexes case '${head.caseId}', which belongs elsewhere`)
    }
    heads.set(enc, head)
  }
  return { heads, trees, indexDirs }
}

/**
 * Months to look into: those the entries go to, and every month of a case whose directory changed
 * behind the index (or that misses entries already, so the warning repeats): such a case is
 * `audited`, counted afresh month by month.
 */
export async function monthsToRead(
  clone: Clone,
  t: Tip,
  h: Heads
): Promise<{ look: { caseId: string; month: string }[]; audited: Set<string> }> {
  const look = new Map<string, { caseId: string; month: string }>()
  for (const e of t.entries) {
    const month = monthOf(e.timestampEval)
    look.set(monthKey(e.caseId, month), { caseId: e.caseId, month })
  }
  const audited = new Set<string>()
  for (const enc of new Set([...h.heads.keys(), ...h.trees.keys()])) {
    const head = h.heads.get(enc)
    const actual = h.trees.get(enc)
    if (head && head.missing === 0 && head.tree === (actual ?? null)) continue
    audited.add(enc)
    const caseId = head?.caseId ?? caseIdOf(enc, t.name)
    const months = new Set([
      ...(await monthsUnder(clone, actual ?? null, t.name(`${ENTRIES_DIR}/${enc}`))).keys(),
      ...(
        await monthsUnder(clone, h.indexDirs.get(enc) ?? null, t.name(`${INDEX_DIR}/${enc}`))
      ).keys()
    ])
    for (const month of months) look.set(monthKey(caseId, month), { caseId, month })
  }
  return { look: [...look.values()], audited }
}

/**
 * The months' trees, files and month indexes, with every file's summary: from the index, or read
 * (and validated) where the month changed behind it. With `withData`, the trees of the months'
 * dashboard data come along in the same round trips: the append rewrites them.
 */
export async function readMonths(
  clone: Clone,
  t: Tip,
  look: { caseId: string; month: string }[],
  withData: boolean
): Promise<Map<string, MonthState>> {
  const { git } = clone
  const found = await itemsAt(clone, t.dirTree, [
    ...look.map(l => monthPath(l.caseId, l.month)),
    ...look.map(l => monthIndexPath(l.caseId, l.month)),
    ...(withData ? look.map(l => monthDataPath(l.caseId, l.month)) : [])
  ])
  const oidAt = (p: string, type: 'tree' | 'blob'): string | null => {
    const item = found.get(p)
    if (item && item.type !== type) {
      throw new HistoryError(t.name(p), `is a ${item.type} where the history holds a ${type}`)
    }
    return item?.oid ?? null
  }
  const trees = look.map(l => oidAt(monthPath(l.caseId, l.month), 'tree'))
  const indexes = look.map(l => oidAt(monthIndexPath(l.caseId, l.month), 'blob'))
  const present = (o: string | null): o is string => !!o
  await clone.fetchObjects([...trees.filter(present), ...indexes.filter(present)])
  const indexTexts = await readBlobs(git, indexes.filter(present))
  await lsTrees(git, trees.filter(present))

  const states = new Map<string, MonthState>()
  for (const [i, l] of look.entries()) {
    const tree = trees[i]
    const files = new Map<string, string>()
    for (const item of tree ? await lsTree(git, tree) : []) {
      if (item.mode !== '100644' && item.mode !== '100755') {
        throw new HistoryError(
          t.name(`${monthPath(l.caseId, l.month)}/${item.name}`),
          'is not a plain file (a link or a directory); a history holds plain files only'
        )
      }
      files.set(item.name, item.oid)
    }
    const file = t.name(monthIndexPath(l.caseId, l.month))
    const before = indexes[i]
    const expected = before ? parseIndex(MonthIndexSchema, file, indexTexts.get(before)!) : null
    if (expected && (expected.caseId !== l.caseId || expected.month !== l.month)) {
      throw new HistoryError(file, `indexes case '${expected.caseId}', ${expected.month}`)
    }
    const summaries = expected ? monthSummaries(file, expected) : new Map<string, HistoryEntry>()
    // A month changed behind the index (hand edit, force-push) is read and validated again.
    if (expected?.tree !== tree) for (const name of files.keys()) summaries.delete(name)
    states.set(monthKey(l.caseId, l.month), { ...l, tree, files, expected, summaries })
  }
  await summariseUnlisted(clone, [...states.values()], t.name)
  return states
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
    const rel = `${monthPath(s.caseId, s.month)}/${file}`
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

/** Whether an entry's file is in its month at the tip. */
export const isStored =
  (states: Map<string, MonthState>) =>
  (e: HistoryEntry): boolean =>
    states
      .get(monthKey(e.caseId, monthOf(e.timestampEval)))!
      .files.has(path.posix.basename(entryPath(e)))

/** Everything an attempt reads before it writes: what the pre-flight of a recording run checks. */
export async function readBranch(
  clone: Clone,
  target: Target,
  fetched: Fetched | null,
  withData: boolean
): Promise<{ tip: Tip; heads: Heads; audited: Set<string>; months: Map<string, MonthState> }> {
  const tip = await readTip(clone, target, fetched)
  const heads = await readHeads(clone, tip)
  const { look, audited } = await monthsToRead(clone, tip, heads)
  const months = await readMonths(clone, tip, look, withData)
  return { tip, heads, audited, months }
}
