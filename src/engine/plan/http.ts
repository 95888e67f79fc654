import {
  containerStartOrder,
  type ContainerAddressing,
  type Readiness
} from '../../topology/containers'
import { dependencies } from '../../topology/depends'
import type { HttpTopology } from '../../topology/schema'
import type { HttpPlan, ServicePlan, WaitStrategy } from './types'

/** The kind a generic service's readiness is awaited by; a shape not named here fails to compile. */
function waitFor(ready: Readiness): WaitStrategy {
  if ('log' in ready) return { kind: 'log', line: ready.log }
  if ('http' in ready) return { kind: 'http', path: ready.http }
  if ('tcp' in ready) return { kind: 'port' }
  // Its check itself goes to the service's plan (`healthcheck`), which the platform runs.
  if ('healthcheck' in ready) return { kind: 'healthcheck' }
  if ('running' in ready) return { kind: 'running' }
  if ('completed' in ready) return { kind: 'completed' }
  return ready satisfies never
}

/**
 * A generic topology as a plan, its placeholders filled in from `addressing` (the platform's):
 * every service runs its own image under its own limits, and is ready as its `ready` says.
 */
export function httpPlan(topology: HttpTopology, addressing: ContainerAddressing): HttpPlan {
  const byName = new Map(topology.services.map(s => [s.name, s]))
  const waves = containerStartOrder(topology, addressing).map(wave =>
    wave.map((commands): ServicePlan => {
      const s = byName.get(commands[0].service)!
      return {
        name: s.name,
        runs: { image: s.image },
        instances: commands.map(c => ({
          name: c.instance,
          service: c.service,
          replica: c.replica,
          argv: c.argv,
          entrypoint: c.entrypoint,
          env: c.env,
          cwd: c.cwd,
          port: c.port,
          wait: waitFor(c.ready)
        })),
        after: dependencies(s),
        aliases: [...(s.aliases ?? [])],
        healthcheck: s.ready && 'healthcheck' in s.ready ? s.ready.healthcheck : null,
        limits: { cpus: commands[0].cpus, memoryBytes: commands[0].memoryBytes },
        constraints: [...(s.deploy?.placement.constraints ?? [])],
        endpointMode: s.deploy?.endpoint_mode ?? null,
        pinned: s.name === topology.load.service,
        mounts: s.mounts,
        settings: s.container ?? null
      }
    })
  )
  return {
    kind: 'http',
    id: topology.id,
    waves,
    images: topology.services,
    // The topology's check gives the load's service a port.
    entry: {
      service: topology.load.service,
      port: addressing.port(topology.load.service, 0)!,
      host: null
    }
  }
}
