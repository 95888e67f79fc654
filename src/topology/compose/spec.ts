import Ajv, { type ErrorObject } from 'ajv'
import spec from './compose-spec.json'

/**
 * A Compose file checked against the Compose Specification's own JSON Schema (a pinned copy,
 * compose-spec.json; its source in compose-spec.md). Returns the one problem worth reading, as
 * the dotted place in the file and the rule, or null when the file is valid.
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

export function specProblem(data: unknown): SpecProblem | null {
  if (validate(data)) return null
  const errors = (validate.errors ?? []).filter(e => e.keyword !== 'oneOf' && e.keyword !== 'anyOf')
  const all = errors.length ? errors : validate.errors!
  // The deepest place is the most specific; an unknown key is reported at the mapping holding it.
  const depth = (e: ErrorObject) => e.instancePath.split('/').length
  const deepest = Math.max(...all.map(depth))
  const here = all.filter(e => depth(e) === deepest)
  const unknown = here.find(e => e.keyword === 'additionalProperties')
  if (unknown) {
    const key = String(unknown.params.additionalProperty)
    const where = unknown.instancePath ? `${dotted(unknown.instancePath)}.${key}` : key
    return { where, msg: 'unknown key (not in the Compose Specification)' }
  }
  return { where: dotted(here[0].instancePath), msg: wording(here) }
}
