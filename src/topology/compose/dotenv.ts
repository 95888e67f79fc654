import { interpolate, InterpolationError, type Lookup, type OnUnset } from './interpolate'

/**
 * Compose's `.env` and `env_file` syntax: `KEY=VALUE` lines, blank lines and `#` comments,
 * an optional `export ` prefix, values unquoted (trimmed, ` #` starts a comment), single-quoted
 * (literal) or double-quoted (`\n`, `\t`, `\\`, `\"` escapes; may span lines). Unquoted and
 * double-quoted values are interpolated, from the variables above them and then `outer` (`unset`
 * is told of a variable read as a blank string). A line `KEY` without `=` takes KEY from `outer`
 * (and is left out when unset there).
 */
export function parseDotenv(text: string, outer: Lookup, unset: OnUnset): Record<string, string> {
  const vars: Record<string, string> = {}
  const lookup: Lookup = n => (Object.hasOwn(vars, n) ? vars[n] : outer(n))
  const lines = text.replace(/\r\n?/g, '\n').split('\n')
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim()
    if (line === '' || line.startsWith('#')) continue
    const m = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*(=?)\s*(.*)$/s.exec(line)
    if (!m || (!m[2] && m[3])) throw new InterpolationError(`line ${i + 1}: not KEY=VALUE`)
    const [, key, eq, raw] = m
    if (!eq) {
      const value = outer(key)
      if (value !== undefined) vars[key] = value
      continue
    }
    const quote = raw[0] === '"' || raw[0] === "'" ? raw[0] : null
    if (!quote) {
      vars[key] = interpolate(raw.replace(/(^|\s+)#.*$/, ''), lookup, unset)
      continue
    }
    // A quoted value ends at its closing quote, on this line or a later one.
    let body = raw.slice(1)
    let end = closingQuote(body, quote)
    while (end < 0 && i + 1 < lines.length) {
      body += '\n' + lines[++i]
      end = closingQuote(body, quote)
    }
    if (end < 0) throw new InterpolationError(`line ${i + 1}: unclosed ${quote} in ${key}`)
    body = body.slice(0, end)
    vars[key] = quote === "'" ? body : interpolate(unescape(body), lookup, unset)
  }
  return vars
}

/** The index of the quote that closes a value, or -1. */
function closingQuote(body: string, quote: string): number {
  for (let i = 0; i < body.length; i++) {
    if (quote === '"' && body[i] === '\\') i++
    else if (body[i] === quote) return i
  }
  return -1
}

const ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', '\\': '\\', '"': '"' }

const unescape = (s: string): string => s.replace(/\\(.)/g, (w, c: string) => ESCAPES[c] ?? w)
