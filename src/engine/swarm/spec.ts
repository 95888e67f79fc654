import type Docker from 'dockerode'
import type { ContainerPlace } from '../docker/spec'
import type { ServicePlan } from '../plan/types'
import { mountSpecs } from '../docker/volumes'
import { fileRefs, type HandedFiles } from './files'
import { healthConfig } from './health'
import { serviceSpec } from './services'

/** Where one Swarm service goes: its deployment's side of the spec, as a container's and more. */
export interface SwarmPlace extends ContainerPlace {
  /** The node it must run on (the manager this engine talks to), or null: where placement says. */
  pinnedTo: string | null
  endpointMode: string
  /** Whether the daemon takes a health check's `StartInterval` (API 1.44 and later). */
  startInterval: boolean
  /** Its Compose secrets and configs as Swarm's, made for its deployment. */
  files: HandedFiles
}

/**
 * A service's container settings in Swarm's form: hosts as `address name`, /dev/shm a tmpfs, the
 * no_new_privs bit a privilege (swarm/settings-check.ts refuses what the daemon's API lacks; `false`
 * is Swarm's default, so nothing is sent for it).
 */
function settings(service: ServicePlan, mounts: Docker.MountSettings[]) {
  const s = service.settings
  const shm: Docker.MountSettings[] = s?.shmBytes
    ? [
        {
          Type: 'tmpfs',
          Target: '/dev/shm',
          TmpfsOptions: { SizeBytes: s.shmBytes }
        } as Docker.MountSettings
      ]
    : []
  return {
    ...(s?.user ? { User: s.user } : {}),
    ...(s?.workingDir ? { Dir: s.workingDir } : {}),
    ...(s?.stopSignal ? { StopSignal: s.stopSignal } : {}),
    ...(s?.extraHosts
      ? {
          Hosts: s.extraHosts.map(h => {
            const at = h.indexOf(':')
            return `${h.slice(at + 1)} ${h.slice(0, at)}`
          })
        }
      : {}),
    ...(s?.ulimits
      ? {
          Ulimits: Object.entries(s.ulimits).map(([Name, l]) => ({
            Name,
            Soft: l.soft,
            Hard: l.hard
          }))
        }
      : {}),
    ...(s?.capDrop ? { CapabilityDrop: s.capDrop } : {}),
    ...(s?.noNewPrivileges ? { Privileges: { NoNewPrivileges: true } } : {}),
    ...(mounts.length + shm.length ? { Mounts: [...mounts, ...shm] } : {})
  }
}

/**
 * One plan service as a Swarm service: a GNES service runs `gnes`; a generic one its image with
 * the plan's entrypoint (`Command`), command (`Args`), environment and health check (Swarm reports
 * a task running once it is healthy). One spec serves every replica, so they share the first
 * replica's command. Peers resolve it by its name and its aliases.
 */
export function swarmServiceSpec(
  service: ServicePlan,
  at: SwarmPlace
): Docker.CreateServiceOptions {
  const [first] = service.instances
  const gnes = service.runs === 'gnes'
  const command = gnes ? ['gnes'] : first.entrypoint
  // Swarm applies only a positive limit; 0 and -1 (unlimited, as on Docker) are left out.
  const pids = service.settings?.pidsLimit ?? 0
  return serviceSpec({
    name: at.name,
    labels: at.labels,
    container: {
      Image: at.image,
      ...(command ? { Command: command } : {}),
      ...(first.argv ? { Args: first.argv } : {}),
      Env: gnes ? ['PYTHONUNBUFFERED=1'] : Object.entries(first.env).map(([k, v]) => `${k}=${v}`),
      ...(service.healthcheck
        ? { HealthCheck: healthConfig(service.healthcheck, at.startInterval) }
        : {}),
      // One spec for every task: on Swarm an unnamed volume is shared by the service's replicas.
      ...settings(service, mountSpecs(at.volumes, service, first.name, at.files.handed)),
      ...(at.files.secrets.length ? { Secrets: fileRefs(at.files.secrets, 'secret') } : {}),
      ...(at.files.configs.length ? { Configs: fileRefs(at.files.configs, 'config') } : {})
    },
    replicas: service.instances.length,
    constraints: [...service.constraints, ...(at.pinnedTo ? [`node.id==${at.pinnedTo}`] : [])],
    cpus: at.cpus,
    memoryBytes: at.memoryBytes,
    pids: pids > 0 ? pids : null,
    network: at.network,
    aliases: [service.name, ...service.aliases],
    endpointMode: at.endpointMode
  })
}
