import * as protobuf from 'protobufjs'

/**
 * A gRPC load's call as its .proto defines it, and its request data checked against the message:
 * protobufjs drops a field it does not know when it encodes, so a misspelt field would be sent as
 * an empty one and measure another request than the file says.
 */

/** A unary method and its request message. */
export interface ProtoCall {
  /** The HTTP/2 path of the call: `/package.Service/Method`. */
  path: string
  request: protobuf.Type
}

/** The definitions of a .proto file (and what it imports, beside it); throws what protobufjs says. */
export function loadProto(file: string): protobuf.Root {
  const root = new protobuf.Root()
  root.loadSync(file, { keepCase: true })
  root.resolveAll()
  return root
}

/** The unary method `package.Service/Method` of `root`, or a message naming what is missing. */
export function protoCall(root: protobuf.Root, call: string): ProtoCall | string {
  const [service, method] = call.split('/')
  const found = root.lookup(service)
  if (!(found instanceof protobuf.Service)) return `no service '${service}'`
  const m = found.methods[method]
  if (!m) {
    const known = Object.keys(found.methods).join(', ') || 'none'
    return `service '${service}' has no method '${method}' (its methods: ${known})`
  }
  if (m.requestStream || m.responseStream) {
    return `'${call}' streams; only unary calls are sent`
  }
  return { path: `/${service}/${method}`, request: m.resolvedRequestType! }
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

const integer64 = (v: unknown): boolean =>
  Number.isInteger(v) || (typeof v === 'string' && /^-?\d+$/.test(v))
const isNumber = (v: unknown): boolean => typeof v === 'number'
const isString = (v: unknown): boolean => typeof v === 'string'

/** What protobufjs takes for each scalar type from a JSON-like object. */
const SCALARS: Record<string, (v: unknown) => boolean> = {
  bool: v => typeof v === 'boolean',
  string: isString,
  bytes: isString,
  ...Object.fromEntries(
    ['int64', 'uint64', 'sint64', 'fixed64', 'sfixed64'].map(t => [t, integer64])
  ),
  ...Object.fromEntries(
    ['double', 'float', 'int32', 'uint32', 'sint32', 'fixed32', 'sfixed32'].map(t => [t, isNumber])
  )
}

/** What is wrong with one value of a field's type, or null. */
function valueProblem(field: protobuf.Field, v: unknown, at: string): string | null {
  const type = field.resolvedType
  if (type instanceof protobuf.Type) return messageProblem(type, v, at)
  if (type instanceof protobuf.Enum) {
    const ok = typeof v === 'string' ? Object.hasOwn(type.values, v) : Number.isInteger(v)
    return ok ? null : `${at}: one of ${Object.keys(type.values).join(', ')}`
  }
  return SCALARS[field.type]?.(v) ? null : `${at}: a value of type ${field.type}`
}

/** A field's values with where each is (a list's index, a map's key), or null when not so shaped. */
function fieldValues(field: protobuf.Field, v: unknown, at: string): [string, unknown][] | null {
  if (field.map) return isObject(v) ? Object.entries(v).map(([k, x]) => [`${at}.${k}`, x]) : null
  if (field.repeated) return Array.isArray(v) ? v.map((x, i) => [`${at}.${i}`, x]) : null
  return [[at, v]]
}

/** What is wrong with `data` as a `type` message, or null: unknown fields, values of a wrong type. */
export function messageProblem(type: protobuf.Type, data: unknown, at = 'data'): string | null {
  const name = type.fullName.slice(1)
  if (!isObject(data)) return `${at}: an object (message ${name})`
  for (const [key, v] of Object.entries(data)) {
    const where = `${at}.${key}`
    if (!Object.hasOwn(type.fields, key)) {
      const known = Object.keys(type.fields).join(', ') || 'none'
      return `${where}: message ${name} has no field '${key}' (its fields: ${known})`
    }
    const field = type.fields[key]
    const values = fieldValues(field, v, where)
    if (values === null) return `${where}: ${field.map ? 'an object (a map)' : 'a list'}`
    for (const [place, item] of values) {
      const problem = valueProblem(field, item, place)
      if (problem) return problem
    }
  }
  return null
}

/** The request bytes of `data`, once checked by messageProblem. */
export const encodeRequest = (type: protobuf.Type, data: Record<string, unknown>): Buffer =>
  Buffer.from(type.encode(type.fromObject(data)).finish())
