import { createHash } from 'node:crypto'

/**
 * What the first line of every report of this action starts with. Alone on that line it is the
 * marker reports carried before comments had keys; such a comment is matched by no keyed marker.
 */
export const REPORT_MARKER = '<!-- gnes-latency-bench -->'

/** Longest key a marker holds as is; a longer one keeps its head and a hash of the whole. */
const MAX_KEY = 160

/** Printable ASCII but the escape itself and the angle brackets that could end the comment. */
const KEPT = /^[ -$&-;=?-~]$/

/** One character as it stands in a marker: itself, or its UTF-8 bytes percent-encoded. */
const escapeChar = (c: string): string =>
  KEPT.test(c)
    ? c
    : [...Buffer.from(c, 'utf8')].map(b => `%${b.toString(16).toUpperCase()}`).join('')

/**
 * A comment key as it stands inside an HTML comment: whitespace runs read as one space, and `%`,
 * `<`, `>` and everything outside printable ASCII percent-encoded, so no key (a workflow's name,
 * a matrix's values) can end the comment or break its line, and two keys stay two markers.
 */
export function markerKey(key: string): string {
  const text = key.trim().replace(/\s+/g, ' ')
  const escaped = [...text].map(escapeChar).join('')
  if (escaped.length <= MAX_KEY) return escaped
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 16)
  return `${escaped.slice(0, MAX_KEY - 17)}~${hash}`
}

/** The first line of a report whose pull-request comment belongs to `key`, and only to it. */
export const commentMarker = (key: string): string =>
  `${REPORT_MARKER}<!-- comment-key: ${markerKey(key)} -->`

/** A report as the action writes and posts it: its comment's marker, then the report. */
export const markReport = (markdown: string, key: string): string =>
  `${commentMarker(key)}\n${markdown}`
