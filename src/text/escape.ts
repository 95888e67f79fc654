import { z } from 'zod'

/**
 * The one place that makes untrusted text safe where it lands. Case names, refs, commit messages,
 * GNES versions and models come from topology files, history files and pull requests; the README,
 * the job summary, the pull-request comment, Mermaid diagrams and file names all escape through
 * these functions, so every output neutralises the same characters.
 */

/**
 * Ids that become file names, paths and chart names (case ids, entry ids): letters, digits, `_`,
 * `-` and inner dots, at most 128 characters. No separator or `..` can leave a directory.
 */
const SLUG_PATTERN = /^[A-Za-z0-9_-](?:[A-Za-z0-9_.-]{0,126}[A-Za-z0-9_-])?$/

export const isSlug = (s: string): boolean => SLUG_PATTERN.test(s) && !s.includes('..')

export const slug = (what: string) =>
  z
    .string()
    .refine(
      isSlug,
      `${what} must be a slug: letters, digits, _, - and inner dots (no '..'), at most 128 characters`
    )

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;'
}

/** Text safe in HTML element content and quoted attributes; a backtick cannot open code either. */
const escapeHtml = (s: string): string => s.replace(/[&<>"'`]/g, c => HTML_ESCAPES[c])

/**
 * Markdown's half of `escapeMarkdown`, for values a Handlebars template emits with `{{x}}` (which
 * escapes the HTML half itself). Whitespace runs (newlines included) become one space, so text
 * cannot start a line of its own; then only what Markdown or GitHub would read is
 * backslash-escaped, so `0.0.47` and `non-blocking` stay as written:
 * - everywhere: emphasis (`*`), links and images (`[`, `]`, and `(` after `]`), table cells
 *   (`|`), strikethrough (`~`), math (`$`) and the backslash itself;
 * - `_` at a word's edge (GFM leaves `snake_case` alone);
 * - what starts a block at the text's start: a list, quote, heading or rule (`-`, `+`, `#`, `=`,
 *   `1.`, `1)`);
 * - autolinks (`://`, `www.`), emoji (`:name:`) and issue references (`#12`);
 * - `@`, which a word joiner keeps from mentioning anyone.
 */
export const escapeMarkdownText = (s: string): string =>
  s
    .replace(/\s+/g, ' ')
    .replace(/[\\*[\]|~$]/g, c => `\\${c}`)
    // `](` reads as a link to any eye, escaped bracket or not: neither half survives.
    .replace(/\\\]\(/g, '\\]\\(')
    .replace(/_/g, (c, i: number, t: string) =>
      /[A-Za-z0-9]/.test(t[i - 1] ?? '') && /[A-Za-z0-9]/.test(t[i + 1] ?? '') ? c : `\\${c}`
    )
    .replace(/#(?=\d)/g, '\\#')
    .replace(
      /^(\s*)([-+#=]|\d{1,9}[.)])(?=\s|$|[-=\s]*$)/,
      (_, space: string, mark: string) => `${space}${mark.replace(/[-+#=.)]/, c => `\\${c}`)}`
    )
    .replace(/:(?=\/\/|[\w+-]+:)/g, '\\:')
    .replace(/\b(www)\./gi, '$1\\.')
    .replace(/@/g, '@\u2060') // a word joiner after @ keeps `@team` from being a mention

/**
 * Text safe anywhere in a Markdown line, table cells included, and in HTML around it: Markdown
 * punctuation is escaped first, then HTML, so no entity is broken by a backslash.
 */
export const escapeMarkdown = (s: string): string => escapeHtml(escapeMarkdownText(s))

/** Inline code when the text is plainly safe in a code span, else escaped text. */
export const inlineCode = (s: string): string =>
  /^[\w:.>/+-]+$/.test(s) ? `\`${s}\`` : escapeMarkdown(s)

/**
 * Only absolute http(s) URLs survive (javascript:, data:, relative paths and garbage are dropped);
 * the WHATWG serialisation percent-encodes spaces, quotes and angle brackets.
 */
export function safeUrl(url: string | null | undefined): string | null {
  if (!url) return null
  try {
    const u = new URL(url)
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : null
  } catch {
    return null
  }
}

/**
 * A Markdown link whose text is already Markdown (escape it first) and whose target passed
 * `safeUrl`; parentheses would end the target early, so they are percent-encoded.
 */
export const markdownLink = (text: string, url: string | null): string =>
  url ? `[${text}](${url.replace(/\(/g, '%28').replace(/\)/g, '%29')})` : text

/**
 * Text inside a quoted Mermaid label. Mermaid's `#name;` entities stand in for every character
 * that could end the label, inject HTML, or (a backtick or newline) close the Markdown fence
 * around the diagram.
 */
export function mermaidLabel(s: string): string {
  const entity: Record<string, string> = {
    '#': '#35;',
    '&': '#amp;',
    '"': '#quot;',
    '<': '#lt;',
    '>': '#gt;',
    '`': '#96;',
    '|': '#124;'
  }
  return s.replace(/\s+/g, ' ').replace(/[#&"<>`|]/g, c => entity[c])
}
