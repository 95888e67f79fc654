/**
 * Compose's variable interpolation (compose-spec `interpolation.md`): `$VAR`, `${VAR}`,
 * `${VAR:-default}`, `${VAR-default}`, `${VAR:?err}`, `${VAR?err}`, `${VAR:+alt}`, `${VAR+alt}`,
 * defaults that hold further references, and `$$` for a literal `$`. A `$` followed by neither a
 * name, `{` nor `$` (`5$`, `a $ b`, `$1`) stays as it is, as compose-go leaves it. As the
 * specification says, a variable that is unset and has no default reads as a blank string and the
 * user is warned (`OnUnset` tells the caller); only `${VAR:?err}` and `${VAR?err}` fail.
 */

/** A variable's value, or undefined when it is unset. */
export type Lookup = (name: string) => string | undefined

/** Told of each variable read as a blank string: unset, and no default covers it. */
export type OnUnset = (name: string) => void

const NAME = /^[A-Za-z_][A-Za-z0-9_]*/

/** Thrown with the reason; the caller adds the file and the key. */
export class InterpolationError extends Error {}

/** Where the text between `${` and its `}` ends (braces nest in defaults), from `start`. */
function closingBrace(text: string, start: number): number {
  let depth = 1
  for (let i = start; i < text.length; i++) {
    if (text[i] === '$' && text[i + 1] === '$') i++
    else if (text[i] === '$' && text[i + 1] === '{') {
      depth++
      i++
    } else if (text[i] === '}' && --depth === 0) return i
  }
  throw new InterpolationError(`unclosed \${ in '${text}'`)
}

/** One `${...}` body: a name, then an optional operator and its word. */
function braced(body: string, lookup: Lookup, unset: OnUnset): string {
  const name = NAME.exec(body)?.[0]
  if (!name) throw new InterpolationError(`invalid variable reference \${${body}}`)
  const op = /^(:?[-?+])?/.exec(body.slice(name.length))![0]
  const rest = body.slice(name.length + op.length)
  if (!op && rest) throw new InterpolationError(`invalid variable reference \${${body}}`)
  const value = lookup(name)
  const set = value !== undefined && (!op.startsWith(':') || value !== '')
  const word = () => interpolate(rest, lookup, unset)
  switch (op.replace(':', '')) {
    case '-':
      return set ? value : word()
    case '+':
      return set ? word() : ''
    case '?':
      if (set) return value
      throw new InterpolationError(
        `variable ${name} is ${value === undefined ? 'unset' : 'empty'}: ${word() || 'required'}`
      )
    default:
      if (value !== undefined) return value
      unset(name)
      return ''
  }
}

/** `text` with every reference replaced. */
export function interpolate(text: string, lookup: Lookup, unset: OnUnset): string {
  let out = ''
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== '$') {
      out += text[i]
      continue
    }
    const next = text[i + 1]
    if (next === '$') {
      out += '$'
      i++
    } else if (next === '{') {
      const end = closingBrace(text, i + 2)
      out += braced(text.slice(i + 2, end), lookup, unset)
      i = end
    } else {
      const name = NAME.exec(text.slice(i + 1))?.[0]
      if (!name) {
        out += '$'
        continue
      }
      out += braced(name, lookup, unset)
      i += name.length
    }
  }
  return out
}

/** What a tree's interpolation tells its caller, each at the dotted path of the value. */
export interface TreeReport {
  /** The value failed (`${VAR?err}`, a bad reference). */
  fail(where: string, msg: string): never
  /** The value read `name` as a blank string. */
  unset(where: string, name: string): void
}

/** Every string value of a parsed YAML tree interpolated (keys are not, as in Compose). */
export function interpolateTree(
  tree: unknown,
  lookup: Lookup,
  report: TreeReport,
  where: string[] = []
): unknown {
  if (typeof tree === 'string') {
    const at = where.join('.') || '(top level)'
    try {
      return interpolate(tree, lookup, name => report.unset(at, name))
    } catch (err) {
      if (!(err instanceof InterpolationError)) throw err
      return report.fail(at, err.message)
    }
  }
  if (Array.isArray(tree)) {
    return tree.map((v, i) => interpolateTree(v, lookup, report, [...where, String(i)]))
  }
  if (tree && typeof tree === 'object') {
    return Object.fromEntries(
      Object.entries(tree).map(([k, v]) => [k, interpolateTree(v, lookup, report, [...where, k])])
    )
  }
  return tree
}
