import { isObj, type Obj } from './obj'

/**
 * A service's keys that Compose accepts in two spellings, brought to one (mappings), so files
 * merge key by key and the translation reads one form. Runs on a file the schema has accepted.
 */

/** `[A=1, B]` as `{A: '1', B: null}`; a mapping's numbers and booleans as strings. */
function envMap(v: unknown): Record<string, string | null> {
  if (Array.isArray(v)) {
    return Object.fromEntries(
      v.map(String).map(item => {
        const eq = item.indexOf('=')
        return eq < 0 ? [item, null] : [item.slice(0, eq), item.slice(eq + 1)]
      })
    )
  }
  return Object.fromEntries(
    Object.entries(v as Obj).map(([k, x]) => [k, x === null ? null : String(x)])
  )
}

/** A list of names as a mapping of each name to the long form's defaults. */
const listToMap = (v: unknown, each: Obj): Obj =>
  Array.isArray(v) ? Object.fromEntries(v.map(n => [String(n), { ...each }])) : (v as Obj)

const NORMALIZE: Record<string, (v: unknown) => unknown> = {
  environment: envMap,
  depends_on: v =>
    Object.fromEntries(
      Object.entries(listToMap(v, {})).map(([k, d]) => [
        k,
        { condition: 'service_started', required: true, ...(d as Obj) }
      ])
    ),
  networks: v =>
    Object.fromEntries(Object.entries(listToMap(v, {})).map(([k, n]) => [k, isObj(n) ? n : {}])),
  // Build args are spelled like environment.
  build: v =>
    typeof v === 'string'
      ? { context: v }
      : isObj(v) && v.args
        ? { ...v, args: envMap(v.args) }
        : v,
  env_file: v =>
    (Array.isArray(v) ? v : [v]).map(f =>
      typeof f === 'string' ? { path: f, required: true } : { required: true, ...(f as Obj) }
    )
}

function normalizeService(service: Obj): Obj {
  const out: Obj = {}
  for (const [k, v] of Object.entries(service)) {
    out[k] = v !== null && NORMALIZE[k] ? NORMALIZE[k](v) : v
  }
  return out
}

/** A Compose file's data with every service normalized. */
export function normalizeFile(data: Obj): Obj {
  if (!isObj(data.services)) return data
  const services = Object.fromEntries(
    Object.entries(data.services).map(([n, s]) => [n, isObj(s) ? normalizeService(s) : s])
  )
  return { ...data, services }
}
