import * as fs from 'node:fs'
import * as path from 'node:path'
import { HistoryError } from './errors'
import { earlierEntryPaths, ENTRIES_DIR, entryPath } from '../site/layout'
import { upgradeEntry } from './migrate'
import type { HistoryEntry } from './schema'

interface ReadOptions {
  /** How errors name the directory, e.g. `gh-pages:benchmarks`; defaults to the path given. */
  label?: string
}

/**
 * Relative paths (forward slashes) of every file under `root`, skipping dotfiles. A symbolic link
 * (or anything but a file or directory) is an error naming it: nothing outside the history is read.
 */
function listFiles(root: string, label: string, rel = ''): string[] {
  return fs
    .readdirSync(path.join(root, rel), { withFileTypes: true })
    .filter(d => !d.name.startsWith('.'))
    .flatMap(d => {
      const child = rel ? `${rel}/${d.name}` : d.name
      if (d.isDirectory()) return listFiles(root, label, child)
      if (d.isFile()) return [child]
      throw new HistoryError(
        path.posix.join(label, ENTRIES_DIR, child),
        `is ${d.isSymbolicLink() ? 'a symbolic link' : 'not a plain file'}; a history holds plain files only and follows no links`
      )
    })
}

/**
 * Every entry of the history in `dir`, validated and upgraded to the current schema, oldest first.
 * Any file that does not parse, does not validate, sits at the wrong path or repeats an id stops
 * the read with a HistoryError naming it: the caller must not write over a history it cannot read.
 */
export function readHistory(dir: string, options: ReadOptions = {}): HistoryEntry[] {
  const label = options.label ?? dir
  const entriesDir = path.join(dir, ENTRIES_DIR)
  if (!fs.existsSync(entriesDir)) return []
  if (!fs.lstatSync(entriesDir).isDirectory()) {
    throw new HistoryError(
      path.posix.join(label, ENTRIES_DIR),
      'is not a directory (a link?); a history follows no links'
    )
  }
  const seen = new Map<string, string>()
  const entries = listFiles(entriesDir, label).map(rel => {
    const file = `${ENTRIES_DIR}/${rel}`
    const name = path.posix.join(label, file)
    const entry = parseEntry(name, fs.readFileSync(path.join(dir, file), 'utf8'))
    const expected = entryPath(entry)
    if (expected !== file && !earlierEntryPaths(entry).includes(file)) {
      throw new HistoryError(name, `holds entry '${entry.id}', which belongs at ${expected}`)
    }
    const other = seen.get(entry.id)
    if (other) throw new HistoryError(name, `repeats entry '${entry.id}' of ${other}`)
    seen.set(entry.id, name)
    return entry
  })
  return sortEntries(entries)
}

/** One stored entry's text, validated and upgraded; `file` names it in errors. */
export function parseEntry(file: string, text: string): HistoryEntry {
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (err) {
    throw new HistoryError(file, `not valid JSON (${(err as Error).message})`)
  }
  try {
    return upgradeEntry(raw)
  } catch (err) {
    throw new HistoryError(file, (err as Error).message)
  }
}

/** Oldest first, ties by id, so renders and prunes see one deterministic order. */
export function sortEntries(entries: HistoryEntry[]): HistoryEntry[] {
  const time = (e: HistoryEntry) => Date.parse(e.timestampEval)
  return [...entries].sort((a, b) => time(a) - time(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
}
