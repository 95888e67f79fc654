/** GitHub refuses comment bodies over 65,536 characters; this leaves room for the note. */
export const COMMENT_LIMIT = 60_000

/**
 * The report cut to whole lines under `limit` characters (UTF-16 units, which never undercount
 * GitHub's characters), with a folded section closed and a note saying where the full report is.
 * Reports that fit are returned unchanged.
 */
export function capComment(markdown: string, note: string, limit = COMMENT_LIMIT): string {
  if (markdown.length <= limit) return markdown
  const tail = (open: boolean) =>
    `${open ? '\n</details>\n' : ''}\n**Report truncated** (${markdown.length} characters; ` +
    `GitHub takes at most 65,536): ${note}\n`
  const kept: string[] = []
  let size = 0
  let open = false
  for (const line of markdown.split('\n')) {
    if (size + line.length + 1 + tail(true).length > limit) break
    kept.push(line)
    size += line.length + 1
    if (line === '<details>') open = true
    if (line === '</details>') open = false
  }
  return `${kept.join('\n')}\n${tail(open)}`
}
