import * as fs from 'node:fs'
import * as path from 'node:path'
import { earlierEntryPaths, entryPath } from '../site/layout'
import { planAppend, selectPrune, type PruneRule } from './plan'
import { readHistory, sortEntries } from './read'
import { serializeEntry, type HistoryEntry } from './schema'
import type { Render } from './render-hook'
import { checkInside, writeInside } from '../safe-write'
import { writeSite } from '../site/site'

export interface AppendOutcome {
  /** Ids written by this call. */
  added: string[]
  /** Ids that were stored already and left untouched. */
  present: string[]
  /** The history after the append, oldest first (on a branch: only the entries read, see appendToBranch). */
  all: HistoryEntry[]
}

export interface PruneOutcome {
  removed: HistoryEntry[]
  all: HistoryEntry[]
}

/**
 * Writes one file per entry. The bytes go to a dotfile (readers skip those) and are hard-linked
 * into place, so a crash never leaves a half-written entry and an existing file is never replaced.
 */
export function writeEntryFiles(dir: string, entries: HistoryEntry[]): void {
  for (const entry of entries) {
    const file = path.join(dir, entryPath(entry))
    const tmp = writeInside(
      dir,
      path.resolve(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`),
      serializeEntry(entry)
    )
    try {
      fs.linkSync(tmp, file)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
    } finally {
      fs.rmSync(tmp, { force: true })
    }
  }
}

/** Removes the directories above `file` (inside `dir`) that are left empty. */
function removeEmptyParents(dir: string, file: string): void {
  for (let d = path.dirname(file); d !== dir && fs.readdirSync(d).length === 0;) {
    fs.rmdirSync(d)
    d = path.dirname(d)
  }
}

/** Deletes the entries' files and the month/year/case directories they leave empty. */
export function removeEntryFiles(dir: string, entries: HistoryEntry[]): void {
  for (const entry of entries) {
    const file = path.join(dir, entryPath(entry))
    fs.rmSync(file)
    removeEmptyParents(dir, file)
  }
}

/**
 * Moves entries stored under an earlier layout to their path, bytes unchanged (an old schema
 * version stays as written). Each file is renamed, so none is ever lost or doubled.
 */
export function relocateEarlierEntries(dir: string, entries: HistoryEntry[]): void {
  for (const entry of entries) {
    const earlier = earlierEntryPaths(entry)
      .map(rel => path.join(dir, rel))
      .find(f => fs.existsSync(f))
    if (!earlier) continue
    const file = checkInside(dir, entryPath(entry))
    fs.mkdirSync(path.dirname(file), { recursive: true })
    fs.renameSync(checkInside(dir, path.resolve(earlier)), checkInside(dir, file))
    removeEmptyParents(dir, earlier)
  }
}

/** Validates the stored history, then adds the entries not stored yet. */
export function applyAppend(dir: string, entries: HistoryEntry[], label?: string): AppendOutcome {
  const existing = readHistory(dir, { label })
  relocateEarlierEntries(dir, existing)
  const ids = new Set(existing.map(e => e.id))
  const plan = planAppend(e => ids.has(e.id), entries)
  writeEntryFiles(dir, plan.add)
  return {
    added: plan.add.map(e => e.id),
    present: plan.present,
    all: sortEntries([...existing, ...plan.add])
  }
}

/** Validates the stored history, then deletes what the rule selects (nothing when `dryRun`). */
export function applyPrune(
  dir: string,
  rule: PruneRule,
  dryRun: boolean,
  label?: string
): PruneOutcome {
  const existing = readHistory(dir, { label })
  const removed = selectPrune(existing, rule)
  if (!dryRun) {
    relocateEarlierEntries(dir, existing)
    removeEntryFiles(dir, removed)
  }
  const gone = new Set(removed.map(e => e.id))
  return { removed, all: dryRun ? existing : existing.filter(e => !gone.has(e.id)) }
}

/** The CLI's store without git: a plain directory; `render` runs only when something was added. */
export async function appendToDir(options: {
  dir: string
  entries: HistoryEntry[]
  render?: Render
}): Promise<AppendOutcome> {
  const outcome = applyAppend(options.dir, options.entries)
  if (options.render && outcome.added.length > 0) {
    writeSite(options.dir, await options.render.full(outcome.all), true)
  }
  return outcome
}

export async function pruneDir(options: {
  dir: string
  rule: PruneRule
  dryRun?: boolean
  render?: Render
}): Promise<PruneOutcome> {
  const outcome = applyPrune(options.dir, options.rule, options.dryRun ?? false)
  if (options.render && !options.dryRun && outcome.removed.length > 0) {
    writeSite(options.dir, await options.render.full(outcome.all), true)
  }
  return outcome
}
