import type { ContainerSettings } from '../http-schema'
import { bytes } from './mounts'
import { isObj, type Obj } from './obj'

/**
 * A service's container settings that change nothing measured but what it needs to run:
 * `user`, `working_dir`, `stop_signal`, `extra_hosts`, `shm_size`, `ulimits` and `runtime`. Pure.
 */

/** `host:ip`, `host=ip` or a mapping of hosts to an address or a list of them. */
function extraHosts(v: unknown): string[] {
  if (Array.isArray(v)) return v.map(h => String(h).replace('=', ':'))
  return Object.entries(isObj(v) ? v : {}).flatMap(([host, a]) =>
    (Array.isArray(a) ? a : [a]).map(addr => `${host}:${String(addr)}`)
  )
}

function ulimits(v: Obj): ContainerSettings['ulimits'] {
  return Object.fromEntries(
    Object.entries(v).map(([name, l]) => {
      const soft = Number(isObj(l) ? l.soft : l)
      return [name, { soft, hard: Number(isObj(l) ? l.hard : l) }]
    })
  )
}

export function containerSettings(s: Obj): ContainerSettings | undefined {
  const out: ContainerSettings = {
    ...(s.user !== undefined ? { user: String(s.user) } : {}),
    ...(s.working_dir !== undefined ? { workingDir: String(s.working_dir) } : {}),
    ...(s.stop_signal !== undefined ? { stopSignal: String(s.stop_signal) } : {}),
    ...(s.extra_hosts !== undefined ? { extraHosts: extraHosts(s.extra_hosts) } : {}),
    ...(s.shm_size !== undefined ? { shmBytes: bytes(s.shm_size, 'shm_size') } : {}),
    ...(isObj(s.ulimits) ? { ulimits: ulimits(s.ulimits) } : {}),
    ...(s.runtime !== undefined ? { runtime: String(s.runtime) } : {})
  }
  return Object.keys(out).length ? out : undefined
}
