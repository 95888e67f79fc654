import { Problem } from './problem'
import { isObj, type Obj } from './obj'

/**
 * `links` (`SERVICE` or `SERVICE:ALIAS`) as Compose runs them on one network: the linked service
 * starts first, and an alias becomes one more name of it there (every service shares the
 * topology's one network, so the alias is not only the linking service's).
 */
interface Link {
  service: string
  alias?: string
}

function linksOf(s: Obj): Link[] {
  const list = Array.isArray(s.links) ? s.links : []
  return list.map(v => {
    const [service, alias] = String(v).split(':')
    return alias !== undefined && alias !== service ? { service, alias } : { service }
  })
}

/** The services `s` links to, each of which must run: they start before it. */
export function linkedServices(s: Obj, running: readonly string[]): string[] {
  return linksOf(s).map(({ service }, i) => {
    if (!running.includes(service)) {
      throw new Problem(
        `links.${i}`,
        `no service named '${service}' runs: link a service of the file, or remove the link (\`links: !reset []\` in the file with x-latency-bench)`
      )
    }
    return service
  })
}

/** The aliases the running services' links give `name`. */
export const linkAliases = (name: string, services: Obj, running: readonly string[]): string[] =>
  running.flatMap(other => {
    const s = services[other]
    return isObj(s) ? linksOf(s).flatMap(l => (l.service === name && l.alias ? [l.alias] : [])) : []
  })
