import * as path from 'node:path'
import type { HistoryEntry } from './schema'

/**
 * Where entries live inside the history directory: one small JSON file per entry, grouped by case,
 * UTC decade, year and month (`entries/<case>/<DDD0>s/<YYYY>/<MM>/<id>.json`). An append therefore
 * adds one blob and rewrites only the few small git trees on its path: none lists more than ten
 * years, twelve months or a case's decades, so none grows with the history. The rendered report
 * (README, charts/, dashboard/, data/) shares the directory and is not read.
 */
export const ENTRIES_DIR = 'entries'

/** Keeps [A-Za-z0-9._-] and writes every other byte as ~XX: injective, portable, no separators. */
export function encodeSegment(text: string): string {
  return Array.from(Buffer.from(text, 'utf8'))
    .map((byte, i) => {
      const c = String.fromCharCode(byte)
      const plain = /[A-Za-z0-9_-]/.test(c) || (c === '.' && i > 0)
      return plain ? c : `~${byte.toString(16).toUpperCase().padStart(2, '0')}`
    })
    .join('')
}

/** UTC month of an ISO timestamp with any offset, e.g. `2019-09`. */
export function monthOf(isoTime: string): string {
  return new Date(isoTime).toISOString().slice(0, 7)
}

/** `2019` → `2010s`: the directory of a year's decade. */
export const decadeOf = (year: string): string => `${year.slice(0, 3)}0s`

/** `2019-09` → `2010s/2019/09`: a month's directory under its decade and year. */
export const monthDir = (month: string): string =>
  `${decadeOf(month.slice(0, 4))}/${month.replace('-', '/')}`

/** `2019`, `09` → `2019-09`, or null when the names are not a year and a month. */
export function monthOfDirs(year: string, month: string): string | null {
  return /^\d{4}$/.test(year) && /^(0[1-9]|1[0-2])$/.test(month) ? `${year}-${month}` : null
}

type Placed = Pick<HistoryEntry, 'id' | 'caseId' | 'timestampEval'>

/** Path of an entry's file under the month folder `folder` names (relative, forward slashes). */
const pathIn = (entry: Placed, folder: (month: string) => string): string =>
  path.posix.join(
    ENTRIES_DIR,
    encodeSegment(entry.caseId),
    folder(monthOf(entry.timestampEval)),
    `${encodeSegment(entry.id)}.json`
  )

/** Path of an entry's file relative to the history directory, with forward slashes. */
export const entryPath = (entry: Placed): string => pathIn(entry, monthDir)

/**
 * Where earlier versions stored an entry: under its year without a decade
 * (`entries/<case>/<YYYY>/<MM>/<id>.json`), and before that without a year
 * (`entries/<case>/<YYYY-MM>/<id>.json`). Still read, and moved to `entryPath` by the next write
 * that reads the whole history.
 */
export const earlierEntryPaths = (entry: Placed): string[] => [
  pathIn(entry, month => month.replace('-', '/')),
  pathIn(entry, month => month)
]

/** The bytes stored for an entry: compact JSON, one line, so per-request samples stay small. */
export function serializeEntry(entry: HistoryEntry): string {
  return `${JSON.stringify(entry)}\n`
}

/** The inverse of encodeSegment (`legacy~2F1` → `legacy/1`); null for a name it never writes. */
export function decodeSegment(name: string): string | null {
  if (!/^(?:[A-Za-z0-9._-]|~[0-9A-F]{2})*$/.test(name)) return null
  try {
    const text = decodeURIComponent(name.replace(/~([0-9A-F]{2})/g, '%$1'))
    return encodeSegment(text) === name ? text : null
  } catch {
    return null
  }
}

/**
 * `dir` as one component of a git ref name, for any history directory (`bench/marks`, `.`, names
 * with spaces or any script): [A-Za-z0-9_-] stay, a dot stays where git allows one (not first,
 * last, doubled or before `lock` at the end), every other byte is written `%XX`. Injective, and
 * the same as the branch's own directory name for the usual `benchmarks`.
 */
export function refSegment(text: string): string {
  const bytes = Array.from(Buffer.from(text, 'utf8'))
  let out = ''
  bytes.forEach((byte, i) => {
    const c = String.fromCharCode(byte)
    const rest = Buffer.from(bytes.slice(i)).toString('latin1')
    const dot = c === '.' && i > 0 && i < bytes.length - 1 && !out.endsWith('.') && rest !== '.lock'
    out +=
      /[A-Za-z0-9_-]/.test(c) || dot ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`
  })
  return out
}

/** Refs of this tool's own beside the branch, per history: `refs/gnes-bench/<kind>/<branch>/<dir>/`. */
const refsOf = (kind: string, branch: string, dir: string): string =>
  `refs/gnes-bench/${kind}/${branch}/${refSegment(dir)}/`

/**
 * Where pending refs of the history in `dir` on `branch` live (src/history/pending.ts), in the
 * remote and (as fetched) in the work repository: `refs/gnes-bench/pending/gh-pages/benchmarks/`.
 */
export const pendingPrefix = (branch: string, dir: string): string => refsOf('pending', branch, dir)

/**
 * The commit this tool last pushed to the history's branch (src/history/continuity.ts), moved by
 * the same atomic push: a force-push of the branch leaves it where it was.
 */
export const knownPrefix = (branch: string, dir: string): string => refsOf('known', branch, dir)
export const knownRef = (branch: string, dir: string): string => `${knownPrefix(branch, dir)}tip`

/**
 * A history directory as a path inside the branch, normalised: `.` for the root, no trailing
 * slash. Throws for a path that leaves the branch.
 */
export function branchDir(dir: string): string {
  const norm = path.posix.normalize(dir.replace(/\\/g, '/'))
  if (path.posix.isAbsolute(norm) || norm === '..' || norm.startsWith('../')) {
    throw new Error(`history-dir '${dir}' must be a path inside the branch`)
  }
  return norm.replace(/\/+$/, '') || '.'
}
