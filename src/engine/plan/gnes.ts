import { READY_PATTERN, startOrder, type Addressing } from '../../topology/commands'
import type { GnesTopology } from '../../topology/schema'
import type { GnesPlan, ServicePlan } from './types'

/**
 * A GNES topology as a plan, its sockets where `addressing` (the platform's) puts them: every
 * service runs on the provisioned GNES under the run's limits, and is ready once its log says so.
 */
export function gnesPlan(topology: GnesTopology, addressing: Addressing): GnesPlan {
  const byName = new Map(topology.services.map(s => [s.name, s]))
  const frontend = topology.services.find(s => s.role === 'frontend')!
  const waves = startOrder(topology, addressing).map(wave =>
    wave.map((commands): ServicePlan => {
      const s = byName.get(commands[0].service)!
      return {
        name: s.name,
        runs: 'gnes',
        instances: commands.map(c => ({
          name: c.instance,
          service: c.service,
          replica: c.replica,
          argv: c.argv,
          entrypoint: null,
          env: {},
          cwd: null,
          port: addressing.port(c.service, 'in'),
          wait: { kind: 'log', line: READY_PATTERN[c.role] }
        })),
        limits: 'engine',
        after: [],
        aliases: [],
        healthcheck: null,
        constraints: [...(s.deploy?.placement.constraints ?? [])],
        endpointMode: s.deploy?.endpoint_mode ?? null,
        pinned: s.role === 'frontend',
        mounts: [],
        settings: null
      }
    })
  )
  return {
    kind: 'gnes',
    id: topology.id,
    waves,
    images: [],
    entry: {
      service: frontend.name,
      port: addressing.grpcPort,
      host: addressing.host(frontend.name)
    },
    routeDump: { instance: `${frontend.name}-0`, path: addressing.dumpPath }
  }
}
