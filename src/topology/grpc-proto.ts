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

const INTEGER_64 = ['int64', 'uint64', 'sint64', 'fixed64', 'sfixed64']
const NUMERIC = ['double', 'float', 'int32', 'uint32', 'sint32', 'fixed32', 'sfixed32']

/** What is wrong with one value of a field's type, or null. */
function valueProblem(field: protobuf.Field, v: unknown, at: string): string | null {
  const type = field.resolvedType
  if (type instanceof protobuf.Type) return messageProblem(type, v, at)
  if (type instanceof protobuf.Enum) {
    const ok = typeof v === 'string' ? v in type.values : Number.isInteger(v)
    return ok ? null : `${at}: one of ${Object.keys(type.values).join(', ')}`
  }
  const t = field.type
  const ok =
    t === 'bool'
      ? typeof v === 'boolean'
      : t === 'string' || t === 'bytes'
        ? typeof v === 'string'
        : INTEGER_64.includes(t)
          ? Number.isInteger(v) || (typeof v === 'string' && /^-?\d+$/.test(v))
          : NUMERIC.includes(t) && typeof v === 'number'
  return ok ? null : `${at}: a value of type ${t}`
}

/** What is wrong with `data` as a `type` message, or null: unknown fields, values of a wrong type. */
export function messageProblem(type: protobuf.Type, data: unknown, at = 'data'): string | null {
  if (!isObject(data)) return `${at}: an object (message ${type.fullName.slice(1)})`
  for (const [key, v] of Object.entries(data)) {
    const field = type.fields[key]
    const where = `${at}.${key}`
    if (!field) {
      const known = Object.keys(type.fields).join(', ') || 'none'
      return `${where}: message ${type.fullName.slice(1)} has no field '${key}' (its fields: ${known})`
    }
    const values = field.map
      ? isObject(v)
        ? Object.values(v)
        : null
      : field.repeated
        ? Array.isArray(v)
          ? v
          : null
        : [v]
    if (values === null) return `${where}: ${field.map ? 'an object (a map)' : 'a list'}`
    for (const [i, item] of values.entries()) {
      const problem = valueProblem(
        field,
        item,
        values.length > 1 || field.repeated ? `${where}.${i}` : where
      )
      if (problem) return problem
    }
  }
  return null
}

/** The request bytes of `data`, once checked by messageProblem. */
export const encodeRequest = (type: protobuf.Type, data: Record<string, unknown>): Buffer =>
  Buffer.from(type.encode(type.fromObject(data)).finish())
