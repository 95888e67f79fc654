import * as path from 'node:path'

/**
 * Every path of the history directory (on a branch, or a plain directory), relative to it with
 * forward slashes: the entries, their index, and the rendered site (README, charts, dashboard
 * pages and data). History writes entries and index here; render places the site here; the
 * stores apply both. See docs/history.md, "Layout".
 *
 * Entries are grouped by case, UTC decade, year and month
 * (`entries/<case>/<DDD0>s/<YYYY>/<MM>/<id>.json`), and the index and the dashboard data follow
 * the same levels, so an append adds a blob and rewrites only the few small trees on its path:
 * none lists more than ten years, twelve months or a case's decades.
 */
export const ENTRIES_DIR = 'entries'
export const INDEX_DIR = 'index'

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

/** What places an entry: its id, case and time. */
interface Placed {
  id: string
  caseId: string
  timestampEval: string
}

/** Path of an entry's file under the month folder `folder` names. */
const pathIn = (entry: Placed, folder: (month: string) => string): string =>
  path.posix.join(
    ENTRIES_DIR,
    encodeSegment(entry.caseId),
    folder(monthOf(entry.timestampEval)),
    `${encodeSegment(entry.id)}.json`
  )

/** Path of an entry's file. */
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

/** `index/<case>.json`: a case's index head. */
export const caseIndexPath = (caseId: string): string =>
  `${INDEX_DIR}/${encodeSegment(caseId)}.json`

/** `index/<case>/<DDD0>s/<YYYY>/<MM>.json`: a case's month index. */
export const monthIndexPath = (caseId: string, month: string): string =>
  `${INDEX_DIR}/${encodeSegment(caseId)}/${monthDir(month)}.json`

/** The rendered README. */
export const README = 'README.md'

/** The dashboard's page, and its files copied from templates/dashboard (same relative paths). */
export const DASHBOARD_PAGE = 'index.html'
export const DASHBOARD_ASSETS = [
  DASHBOARD_PAGE,
  'dashboard/app.js',
  'dashboard/style.css',
  'dashboard/vendor/vega.min.js',
  'dashboard/vendor/vega-lite.min.js',
  'dashboard/vendor/vega-embed.min.js',
  'dashboard/vendor/LICENSES.txt'
] as const

/** The chart templates as a script the dashboard loads. */
export const CHARTS_SCRIPT = 'dashboard/charts.js'

/** The dashboard's series list, every case's months included. */
export const CASES_DATA = 'data/cases.js'

/** A static chart's file: its SVG (`svg`) or its Vega-Lite spec (`vl.json`). */
export const chartPath = (name: string, ext: 'svg' | 'vl.json'): string => `charts/${name}.${ext}`

/** `data/<case>/<DDD0>s/<YYYY>/<MM>.js`: a case's dashboard data for one month. */
export const monthDataPath = (caseId: string, month: string): string =>
  `data/${encodeSegment(caseId)}/${monthDir(month)}.js`

const CHART_FILE =
  /^charts\/case-[\w.-]+-(roundtrip|rate|legacy|hops|latency|curve|throughput)\.(svg|vl\.json)$/
/**
 * Month data files as `monthDataPath` names them, and as the layouts before the decade level
 * (`data/<case>/<YYYY>/<MM>.js`) and before the year level (`data/<case>/<YYYY-MM>.js`) did.
 */
const MONTH_DATA_FILE =
  /^data\/[A-Za-z0-9._~-]+\/(\d{3}0s\/\d{4}\/\d{2}|\d{4}\/\d{2}|\d{4}-\d{2})\.js$/

/**
 * Files a whole render rewrites by name: a chart or a month's data that the new site lacks is of
 * a vanished case or a pruned month (or of an earlier layout) and goes. Nothing else is removed,
 * so files of others beside the history stay.
 */
export const isReplaced = (rel: string): boolean =>
  CHART_FILE.test(rel) || MONTH_DATA_FILE.test(rel)

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

/** A path of the history directory `dir` (as `branchDir` gives it) as a path on the branch. */
export const onBranch = (dir: string, rel: string): string => (dir === '.' ? rel : `${dir}/${rel}`)
