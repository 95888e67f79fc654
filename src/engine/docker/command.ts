import type { Addressing } from '../../topology/commands'
import type { GnesTopology } from '../../topology/schema'

/**
 * Container addressing (Docker and Swarm): every instance has its own network namespace, so the
 * ports can be fixed (the legacy ones) and two suites still run side by side; peers are reached by
 * DNS name on the topology's network.
 */
export const GRPC_PORT = 5566
export const ROUTE_DUMP = '/tmp/gnes-route-dump.jsonl'
const FRONTEND = { in: 57908, out: 53463 }
const ROUTER = { in: 57909, out: 57911 }

export function containerAddressing(topology: GnesTopology): Addressing {
  const role = new Map(topology.services.map(s => [s.name, s.role]))
  return {
    host: service => service,
    port: (service, side) => (role.get(service) === 'frontend' ? FRONTEND : ROUTER)[side],
    grpcPort: GRPC_PORT,
    dumpPath: ROUTE_DUMP
  }
}
