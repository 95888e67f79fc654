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

/** A commit id as a marker holds it: SHA-1's 40 or SHA-256's 64 lowercase hex digits. */
const SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/

/** What the marker line adds after the key: the head commit the report is about. */
const headTag = (sha: string): string => `<!-- head: ${sha} -->`

/**
 * The first line of a report: its comment's marker, then the pull request's head commit the
 * verdict is about, so a later run can tell which head a comment reports. A head that is not a
 * commit id (it comes from the event) is left out rather than written into the comment.
 */
export const markerLine = (key: string, head: string | null): string =>
  `${commentMarker(key)}${head !== null && SHA.test(head) ? headTag(head) : ''}`

/** A report as the action writes and posts it: its marker line, then the report. */
export const markReport = (markdown: string, key: string, head: string | null): string =>
  `${markerLine(key, head)}\n${markdown}`

/**
 * Whether `body` is the comment `marker` names, and which head it reports: its first line must be
 * the marker alone (a report from before heads: `head` null) or the marker and one head tag, and
 * nothing else, so a marker quoted or placed further down in other text is never taken.
 */
export function readMarker(
  body: string | null | undefined,
  marker: string
): { head: string | null } | null {
  if (typeof body !== 'string') return null
  const first = body.split(/\r?\n/, 1)[0]
  if (first === marker) return { head: null }
  if (!first.startsWith(marker)) return null
  const tag = /^<!-- head: ([0-9a-f]+) -->$/.exec(first.slice(marker.length))
  return tag && SHA.test(tag[1]) ? { head: tag[1] } : null
}
