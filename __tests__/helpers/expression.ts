/**
 * GitHub Actions expressions of the forms the example workflows use, evaluated as GitHub does:
 * `a || b` is the first truthy operand (else the last), `a && b` the first falsy one (else the
 * last), `==` and `!=` compare strings case-insensitively and other values as they are, a
 * property path missing from the context is null, and `always()` is true. Anything else (other
 * functions, parentheses, comparisons of order) throws, so an example using it is noticed.
 */
export type Context = Record<string, unknown>

const splitTop = (expr: string, op: string): string[] => expr.split(op).map(p => p.trim())

const equal = (a: unknown, b: unknown): boolean =>
  typeof a === 'string' && typeof b === 'string' ? a.toLowerCase() === b.toLowerCase() : a === b

function operand(text: string, context: Context): unknown {
  if (text === 'always()') return true
  if (text === 'true' || text === 'false') return text === 'true'
  const literal = /^'((?:[^']|'')*)'$/.exec(text)
  if (literal) return literal[1].replaceAll("''", "'")
  if (/^\d+$/.test(text)) return Number(text)
  if (!/^[A-Za-z_][\w-]*(\.[A-Za-z_][\w-]*)*$/.test(text))
    throw new Error(`an expression this evaluator does not read: ${text}`)
  let value: unknown = context
  for (const key of text.split('.')) {
    value =
      value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : null
    if (value === undefined) value = null
  }
  return value
}

function comparison(text: string, context: Context): unknown {
  for (const [op, same] of [
    ['!=', false],
    ['==', true]
  ] as const) {
    const sides = splitTop(text, op)
    if (sides.length === 2)
      return equal(operand(sides[0], context), operand(sides[1], context)) === same
  }
  return operand(text, context)
}

export function evaluate(expr: string, context: Context): unknown {
  const text = expr.replace(/\s+/g, ' ').trim()
  const ors = splitTop(text, '||')
  if (ors.length > 1) {
    const values = ors.map(e => evaluate(e, context))
    const truthy = values.findIndex(Boolean)
    return values[truthy < 0 ? values.length - 1 : truthy]
  }
  const ands = splitTop(text, '&&')
  if (ands.length > 1) {
    const values = ands.map(e => comparison(e, context))
    const falsy = values.findIndex(v => !v)
    return values[falsy < 0 ? values.length - 1 : falsy]
  }
  return comparison(text, context)
}

/** A value with `${{ … }}` in it, each expression replaced by its value as text. */
export const expand = (text: string, context: Context): string =>
  text.replace(/\$\{\{\s*(.+?)\s*\}\}/g, (_, e: string) => {
    const value = evaluate(e, context)
    if (value === null) throw new Error(`no value for \${{ ${e} }}`)
    return String(value)
  })

/** A step's `if:`, which may be written with or without `${{ }}`; none means success(). */
export const stepRuns = (condition: string | undefined, context: Context): boolean =>
  condition === undefined ||
  Boolean(evaluate(condition.replace(/^\s*\$\{\{([\s\S]*)\}\}\s*$/, '$1'), context))
