import {
  READY_PATTERN,
  serviceCommands,
  type Addressing,
  type ServiceCommand
} from '../../topology/commands'
import type { Service, Topology } from '../../topology/schema'

/**
 * Container addressing: every service has its own network namespace, so the ports can be fixed
 * (the legacy ones) and two suites still run side by side; peers are reached by DNS name.
 */
export const GRPC_PORT = 5566
export const ROUTE_DUMP = '/tmp/gnes-route-dump.jsonl'
const FRONTEND = { in: 57908, out: 53463 }
const ROUTER = { in: 57909, out: 57911 }

export function containerAddressing(topology: Topology): Addressing {
  const role = new Map(topology.services.map(s => [s.name, s.role]))
  return {
    host: service => service,
    port: (service, side) => (role.get(service) === 'frontend' ? FRONTEND : ROUTER)[side],
    grpcPort: GRPC_PORT,
    dumpPath: ROUTE_DUMP
  }
}

export const readyPattern = (c: ServiceCommand): RegExp => READY_PATTERN[c.role]

/**
 * The commands in start order: a service after the peers it connects to, so their DNS names
 * already resolve when it dials.
 */
export function orderedCommands(topology: Topology): ServiceCommand[] {
  const peers = (s: Service): string[] =>
    s.role === 'frontend' ? [] : [s.in, s.out].flatMap(sock => ('peer' in sock ? [sock.peer] : []))
  const started = new Set<string>()
  const order: string[] = []
  let rest = [...topology.services]
  while (rest.length) {
    const next = rest.filter(s => peers(s).every(p => started.has(p)))
    // A cycle of CONNECTs cannot be ordered; take the rest as written.
    const batch = next.length ? next : rest
    for (const s of batch) {
      started.add(s.name)
      order.push(s.name)
    }
    rest = rest.filter(s => !batch.includes(s))
  }
  const commands = serviceCommands(topology, containerAddressing(topology))
  return order.flatMap(name => commands.filter(c => c.service === name))
}
