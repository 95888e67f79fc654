import type Docker from 'dockerode'
import { STOP_GRACE_MS } from '../lifecycle'
import type { InstancePlan, ServicePlan } from '../plan/types'
import { NO_HEALTHCHECK } from './health'
import { hostLimits } from './limits'
import { mountSpecs, type VolumePlace } from './volumes'

/** Where one container goes and what it runs as: its deployment's side of the spec. */
export interface ContainerPlace {
  name: string
  image: string
  labels: Record<string, string>
  network: string
  cpus: number | null
  memoryBytes: number | null
  volumes: VolumePlace
}

/** The Engine API's form of a service's container settings (Swarm's differ: see swarm/spec.ts). */
function settings(service: ServicePlan): Partial<Docker.ContainerCreateOptions> {
  const s = service.settings
  if (!s) return {}
  return {
    ...(s.user ? { User: s.user } : {}),
    ...(s.workingDir ? { WorkingDir: s.workingDir } : {}),
    ...(s.stopSignal ? { StopSignal: s.stopSignal } : {})
  }
}

/**
 * Host settings: extra hosts, shared memory, ulimits, the runtime (openPlace checked it), and what
 * only restricts: the process limit, the capabilities dropped and the no_new_privs bit (`=false`
 * spelled out, as it overrides a daemon that sets the bit by default).
 */
function hostSettings(service: ServicePlan): Docker.HostConfig {
  const s = service.settings
  if (!s) return {}
  return {
    ...(s.runtime ? { Runtime: s.runtime } : {}),
    ...(s.pidsLimit !== undefined ? { PidsLimit: s.pidsLimit } : {}),
    ...(s.capDrop ? { CapDrop: s.capDrop } : {}),
    ...(s.noNewPrivileges !== undefined
      ? { SecurityOpt: [`no-new-privileges=${s.noNewPrivileges}`] }
      : {}),
    ...(s.extraHosts ? { ExtraHosts: s.extraHosts } : {}),
    ...(s.shmBytes ? { ShmSize: s.shmBytes } : {}),
    ...(s.ulimits
      ? {
          Ulimits: Object.entries(s.ulimits).map(([Name, l]) => ({
            Name,
            Soft: l.soft,
            Hard: l.hard
          }))
        }
      : {})
  }
}

/**
 * One instance's container: a GNES instance runs `gnes`; a generic one its image with the plan's
 * entrypoint, command and environment; neither runs Docker's health checks. Peers find it on the
 * network by its instance name, its service's name and the service's aliases. An init as PID 1
 * passes SIGTERM on, so a stop is quick and clean.
 */
export function containerSpec(
  service: ServicePlan,
  i: InstancePlan,
  at: ContainerPlace
): Docker.ContainerCreateOptions {
  const gnes = service.runs === 'gnes'
  const entrypoint = gnes ? ['gnes'] : i.entrypoint
  return {
    name: at.name,
    Hostname: i.name,
    Image: at.image,
    ...(entrypoint ? { Entrypoint: entrypoint } : {}),
    ...(i.argv ? { Cmd: i.argv } : {}),
    Env: gnes ? ['PYTHONUNBUFFERED=1'] : Object.entries(i.env).map(([k, v]) => `${k}=${v}`),
    Labels: at.labels,
    StopTimeout: STOP_GRACE_MS / 1000,
    ...settings(service),
    Healthcheck: NO_HEALTHCHECK,
    HostConfig: {
      NetworkMode: at.network,
      Init: true,
      ...hostLimits(at.cpus, at.memoryBytes),
      ...hostSettings(service),
      Mounts: mountSpecs(at.volumes, service, i.name)
    },
    NetworkingConfig: {
      EndpointsConfig: {
        [at.network]: { Aliases: [i.name, service.name, ...service.aliases] }
      }
    }
  }
}
