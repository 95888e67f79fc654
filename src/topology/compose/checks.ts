import { NESTED_KEYS, SERVICE_KEYS, TOP_KEYS, type Decision } from './keys'

/**
 * The keys of one Compose file (schema-valid, interpolated) that the benchmark refuses
 * (keys.ts), with a few values refused where the key itself is honoured. Returns the first, as
 * the dotted place and the reason, or null.
 */
export interface Refusal {
  where: string
  msg: string
}

type Obj = Record<string, unknown>

const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v)

const UNKNOWN: Decision = { refused: 'the benchmark does not support this key' }

/** The first key of `obj` that `table` refuses (extension keys `x-*` are Compose's comments). */
function refusedKey(obj: Obj, table: Record<string, Decision>, where: string): Refusal | null {
  for (const key of Object.keys(obj)) {
    if (key.startsWith('x-')) continue
    const decision = table[key] ?? UNKNOWN
    if (typeof decision === 'object') {
      return { where: where ? `${where}.${key}` : key, msg: decision.refused }
    }
  }
  return null
}

/** The nested mappings of a service whose keys are decided one by one, by their tables. */
function nested(service: Obj, where: string): [Obj, string, Record<string, Decision>][] {
  const deploy = isObj(service.deploy) ? service.deploy : {}
  const resources = isObj(deploy.resources) ? deploy.resources : {}
  const parts: [unknown, string, string][] = [
    [service.deploy, 'deploy', 'deploy'],
    [deploy.resources, 'deploy.resources', 'deploy.resources'],
    [resources.limits, 'deploy.resources.limits', 'deploy.resources.limits'],
    [deploy.placement, 'deploy.placement', 'deploy.placement'],
    [service.build, 'build', 'build'],
    ...Object.entries(isObj(service.networks) ? service.networks : {}).map(
      ([n, v]): [unknown, string, string] => [v, `networks.${n}`, 'network']
    )
  ]
  return parts.flatMap(([obj, path, table]) =>
    isObj(obj) ? [[obj, `${where}.${path}`, NESTED_KEYS[table]]] : []
  )
}

/** Values of honoured keys that the benchmark cannot honour. */
function refusedValue(service: Obj, where: string): Refusal | null {
  const deploy = isObj(service.deploy) ? service.deploy : {}
  if (deploy.mode !== undefined && deploy.mode !== 'replicated') {
    return {
      where: `${where}.deploy.mode`,
      msg: `'${String(deploy.mode)}' is not supported: services run as replicated services`
    }
  }
  const build = service.build
  const context = isObj(build) ? String(build.context ?? '.') : String(build ?? '')
  if (/^[a-z][a-z0-9+.-]*:\/\/|^git@/i.test(context)) {
    return {
      where: `${where}.build.context`,
      msg: 'a remote build context is not supported: a directory beside the Compose file'
    }
  }
  return null
}

export function refusal(data: Obj): Refusal | null {
  const top = refusedKey(data, TOP_KEYS, '')
  if (top) return top
  for (const [name, service] of Object.entries(isObj(data.services) ? data.services : {})) {
    if (!isObj(service)) continue
    const where = `services.${name}`
    const found =
      refusedKey(service, SERVICE_KEYS, where) ??
      nested(service, where).reduce<Refusal | null>(
        (r, [obj, at, table]) => r ?? refusedKey(obj, table, at),
        null
      ) ??
      refusedValue(service, where)
    if (found) return found
  }
  return null
}
