import Ajv, { type ErrorObject } from 'ajv'
import spec from './compose-spec.json'

/**
 * A Compose file checked against the Compose Specification's own JSON Schema (a pinned copy,
 * compose-spec.json; its source in compose-spec.md). Returns each problem as the dotted place in
 * the file and the rule; none when the file is valid.
 */

// The schema names draft-07 by an https address Ajv does not know, and uses formats of its own.
const validate = new Ajv({ allErrors: true, strict: false, validateFormats: false }).compile({
  ...spec,
  $schema: undefined
})

export interface SpecProblem {
  where: string
  msg: string
}

const dotted = (pointer: string): string =>
  pointer
    .split('/')
    .slice(1)
    .map(p => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.') || '(top level)'

/** The rule broken at one place: the types or values it may have. */
function wording(errors: ErrorObject[]): string {
  const types = [
    ...new Set(errors.filter(e => e.keyword === 'type').map(e => String(e.params.type)))
  ]
  if (types.length) return `must be ${types.join(' or ').replace(/,/g, ' or ')}`
  const allowed = errors.find(e => e.keyword === 'enum')
  if (allowed) {
    return `must be one of ${(allowed.params.allowedValues as unknown[]).map(v => JSON.stringify(v)).join(', ')}`
  }
  return errors[0].message ?? 'invalid'
}

/** The problem at one place, from the errors Ajv reports there. */
function problemAt(here: ErrorObject[]): SpecProblem {
  const unknown = here.find(e => e.keyword === 'additionalProperties')
  if (unknown) {
    const key = String(unknown.params.additionalProperty)
    const where = unknown.instancePath ? `${dotted(unknown.instancePath)}.${key}` : key
    return { where, msg: 'unknown key (not in the Compose Specification)' }
  }
  return { where: dotted(here[0].instancePath), msg: wording(here) }
}

/** The key a problem belongs to: `/services/web/ports`, an unknown key's own place included. */
const keyOf = (e: ErrorObject): string => {
  const own = e.keyword === 'additionalProperties' ? `/${String(e.params.additionalProperty)}` : ''
  return `${e.instancePath}${own}`.split('/').slice(0, 4).join('/')
}

/**
 * Every key the file breaks the schema at. Where a value may take several forms, Ajv reports each
 * form's complaints; the deepest place is the most specific, so each key gets the problem there.
 */
export function specProblems(data: unknown): SpecProblem[] {
  if (validate(data)) return []
  const errors = (validate.errors ?? []).filter(e => e.keyword !== 'oneOf' && e.keyword !== 'anyOf')
  const all = errors.length ? errors : validate.errors!
  const depth = (e: ErrorObject) => e.instancePath.split('/').length
  return [...new Set(all.map(keyOf))].map(key => {
    const mine = all.filter(e => keyOf(e) === key)
    const deepest = Math.max(...mine.map(depth))
    return problemAt(mine.filter(e => depth(e) === deepest))
  })
}
