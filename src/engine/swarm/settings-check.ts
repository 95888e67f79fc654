import { resetAdvice } from '../../topology/compose/keys'
import type { ServicePlan } from '../plan/types'
import { apiAtLeast } from './api-version'

/**
 * Whether the Swarm daemon can give each service the container settings that only restrict it,
 * asked before a deployment creates anything: a daemon older than the field's Engine API drops
 * it unread, and the service would run without the limit its file asks for. Pure.
 */

interface Needs {
  /** Whether the service asks for what the API added. */
  asks(service: ServicePlan): boolean
  /** The Engine API version, and Docker's, that added it to a Swarm service. */
  since: readonly [number, number]
  docker: string
  /** What it is, the Compose key that sets it, and that key's empty value. */
  what: string
  key: string
  empty: string
}

const NEEDS: readonly Needs[] = [
  {
    asks: s => (s.settings?.pidsLimit ?? 0) > 0,
    since: [1, 41],
    docker: '20.10',
    what: 'a process limit',
    key: 'pids_limit',
    empty: 'null'
  },
  {
    asks: s => Boolean(s.settings?.capDrop?.length),
    since: [1, 41],
    docker: '20.10',
    what: 'dropped capabilities',
    key: 'cap_drop',
    empty: '[]'
  },
  {
    asks: s => s.settings?.noNewPrivileges === true,
    since: [1, 44],
    docker: '25',
    what: 'no-new-privileges',
    key: 'security_opt',
    empty: '[]'
  }
]

/** The first service whose settings this daemon's API cannot give a Swarm service, in words. */
export function swarmSettingsProblem(
  services: readonly ServicePlan[],
  apiVersion: string
): string | null {
  for (const service of services) {
    for (const n of NEEDS) {
      if (!n.asks(service) || apiAtLeast(apiVersion, n.since)) continue
      const api = n.since.join('.')
      return `service '${service.name}' asks for ${n.what}, which a Swarm service takes from Engine API ${api} (Docker ${n.docker}) and this daemon speaks ${apiVersion}: run it with engine: docker, or ${resetAdvice(n.key, n.empty)}`
    }
  }
  return null
}
