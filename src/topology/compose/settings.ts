import type { ContainerSettings } from '../http-schema'
import { bytes } from './mounts'
import { isObj, type Obj } from './obj'
import { Problem } from './problem'
import { lastNoNewPrivileges } from './security-opt'

/**
 * A service's container settings that change nothing measured but what it needs to run:
 * `user`, `working_dir`, `stop_signal`, `extra_hosts`, `shm_size`, `ulimits`, `runtime`,
 * `platform`, and
 * what only restricts it: `pids_limit` (or `deploy.resources.limits.pids`), `cap_drop` and
 * `security_opt`'s no-new-privileges (checks.ts refuses its other entries). Pure.
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

/** `pids_limit` or `deploy.resources.limits.pids`, which must agree, as Compose requires. */
function pidsLimit(s: Obj): number | undefined {
  const deploy = isObj(s.deploy) ? s.deploy : {}
  const limits =
    isObj(deploy.resources) && isObj(deploy.resources.limits) ? deploy.resources.limits : {}
  const [fromDeploy, own] = [limits.pids, s.pids_limit].map(v =>
    v === undefined ? undefined : Number(v)
  )
  if (fromDeploy !== undefined && own !== undefined && fromDeploy !== own) {
    throw new Problem(
      'pids_limit',
      `${own} and deploy.resources.limits.pids ${fromDeploy} disagree`
    )
  }
  const n = fromDeploy ?? own
  if (n !== undefined && !Number.isInteger(n)) {
    const key = fromDeploy !== undefined ? 'deploy.resources.limits.pids' : 'pids_limit'
    throw new Problem(key, `'${String(limits.pids ?? s.pids_limit)}' is not a number of processes`)
  }
  return n
}

export function containerSettings(s: Obj): ContainerSettings | undefined {
  const pids = pidsLimit(s)
  const noNewPrivileges = Array.isArray(s.security_opt)
    ? lastNoNewPrivileges(s.security_opt.map(String))
    : undefined
  const out: ContainerSettings = {
    ...(s.user !== undefined ? { user: String(s.user) } : {}),
    ...(s.working_dir !== undefined ? { workingDir: String(s.working_dir) } : {}),
    ...(s.stop_signal !== undefined ? { stopSignal: String(s.stop_signal) } : {}),
    ...(s.extra_hosts !== undefined ? { extraHosts: extraHosts(s.extra_hosts) } : {}),
    ...(s.shm_size !== undefined ? { shmBytes: bytes(s.shm_size, 'shm_size') } : {}),
    ...(isObj(s.ulimits) ? { ulimits: ulimits(s.ulimits) } : {}),
    ...(s.runtime !== undefined ? { runtime: String(s.runtime) } : {}),
    ...(s.platform !== undefined ? { platform: String(s.platform).toLowerCase() } : {}),
    ...(pids !== undefined ? { pidsLimit: pids } : {}),
    ...(Array.isArray(s.cap_drop) && s.cap_drop.length ? { capDrop: s.cap_drop.map(String) } : {}),
    ...(noNewPrivileges !== undefined ? { noNewPrivileges } : {})
  }
  return Object.keys(out).length ? out : undefined
}
