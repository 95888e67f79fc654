import { NESTED_KEYS, resetAdvice, SERVICE_KEYS, TOP_KEYS, type Decision } from './keys'
import { isObj, type Obj } from './obj'
import { securityOptRefusals } from './security-opt'

/**
 * The keys of one Compose file (schema-valid, interpolated) that the benchmark refuses
 * (keys.ts), with a few values refused where the key itself is honoured: every one, each as the
 * dotted place and the reason, so a user fixes them all at once.
 */
export interface Refusal {
  where: string
  msg: string
}

/** A key of the specification that keys.ts does not decide yet. */
const unknown = (key: string): Decision => ({
  refused: `the benchmark does not support this key: ${resetAdvice(key)}`
})

/** The keys of `obj` that `table` refuses (extension keys `x-*` are Compose's comments). */
const refusedKeys = (obj: Obj, table: Record<string, Decision>, where: string): Refusal[] =>
  Object.keys(obj).flatMap(key => {
    const decision = key.startsWith('x-') ? 'ignored' : (table[key] ?? unknown(key))
    return typeof decision === 'object'
      ? [{ where: where ? `${where}.${key}` : key, msg: decision.refused }]
      : []
  })

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
function refusedValues(service: Obj, where: string): Refusal[] {
  const found: Refusal[] = []
  const deploy = isObj(service.deploy) ? service.deploy : {}
  if (deploy.mode !== undefined && deploy.mode !== 'replicated') {
    found.push({
      where: `${where}.deploy.mode`,
      msg: `'${String(deploy.mode)}' is not supported: services run as replicated services: ${resetAdvice('mode')}, and give the instances in replicas`
    })
  }
  const build = service.build
  const context = isObj(build) ? String(build.context ?? '.') : String(build ?? '')
  if (/^[a-z][a-z0-9+.-]*:\/\/|^git@/i.test(context)) {
    found.push({
      where: `${where}.build.context`,
      msg: 'a remote build context is not supported: build from a directory of the checkout (`context: ./dir`), or run a built image (`build: !reset null` and `image`)'
    })
  }
  return [...found, ...securityOptRefusals(service.security_opt, `${where}.security_opt`)]
}

export function refusals(data: Obj): Refusal[] {
  const services = Object.entries(isObj(data.services) ? data.services : {})
  return [
    ...refusedKeys(data, TOP_KEYS, ''),
    ...services.flatMap(([name, service]) => {
      if (!isObj(service)) return []
      const where = `services.${name}`
      return [
        ...refusedKeys(service, SERVICE_KEYS, where),
        ...nested(service, where).flatMap(([obj, at, table]) => refusedKeys(obj, table, at)),
        ...refusedValues(service, where)
      ]
    })
  ]
}
