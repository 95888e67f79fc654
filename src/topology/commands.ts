import type { GnesTopology, Service, Socket } from './schema'
import { inWaves } from './waves'

/** Where a service's sockets live: the engine decides hosts (loopback, DNS names) and ports. */
export interface Addressing {
  host(service: string): string
  port(service: string, side: 'in' | 'out'): number
  grpcPort: number
  dumpPath: string
}

/** One process or container to start: `gnes <argv...>`. */
export interface ServiceCommand {
  kind: 'gnes'
  service: string
  role: 'frontend' | 'router'
  replica: number
  /** Unique per replica, e.g. Router1-0; used for logs and container names. */
  instance: string
  argv: string[]
}

function socketArgs(
  side: 'in' | 'out',
  self: string,
  sock: Socket,
  addressing: Addressing
): string[] {
  if (!('peer' in sock)) {
    return [`--port_${side}`, String(addressing.port(self, side)), `--socket_${side}`, sock.socket]
  }
  // An input connects to the peer's output and an output to the peer's input.
  const peerSide = side === 'in' ? 'out' : 'in'
  return [
    `--port_${side}`,
    String(addressing.port(sock.peer, peerSide)),
    `--socket_${side}`,
    sock.socket,
    `--host_${side}`,
    addressing.host(sock.peer)
  ]
}

/** The GNES command lines of a topology, frontend first, in the form design.md gives. */
export function serviceCommands(topology: GnesTopology, addressing: Addressing): ServiceCommand[] {
  return topology.services.flatMap((s): ServiceCommand[] => {
    if (s.role === 'frontend') {
      const argv = [
        'frontend',
        '--grpc_port',
        String(addressing.grpcPort),
        '--port_out',
        String(addressing.port(s.name, 'out')),
        '--socket_out',
        'PUSH_BIND',
        '--port_in',
        String(addressing.port(s.name, 'in')),
        '--socket_in',
        'PULL_BIND',
        '--dump_route',
        addressing.dumpPath,
        ...s.args
      ]
      return [
        { kind: 'gnes', service: s.name, role: s.role, replica: 0, instance: `${s.name}-0`, argv }
      ]
    }
    return Array.from({ length: s.replicas }, (_, replica) => ({
      kind: 'gnes' as const,
      service: s.name,
      role: s.role,
      replica,
      instance: `${s.name}-${replica}`,
      argv: [
        'route',
        ...socketArgs('in', s.name, s.in, addressing),
        ...socketArgs('out', s.name, s.out, addressing),
        '--yaml_path',
        s.model,
        ...s.args
      ]
    }))
  })
}

/** Log lines that mean a service accepts traffic (stable across GNES 0.0.42–0.0.47). */
export const READY_PATTERN = { frontend: /listening at/, router: /ready and listening/ } as const

/**
 * The commands grouped by service, the services in waves of start order: a service after the peers
 * it connects to, so their names already resolve and listen when it dials.
 */
export function startOrder(topology: GnesTopology, addressing: Addressing): ServiceCommand[][][] {
  const peers = (s: Service): string[] =>
    s.role === 'frontend' ? [] : [s.in, s.out].flatMap(sock => ('peer' in sock ? [sock.peer] : []))
  const { waves, unordered } = inWaves(
    topology.services.map(s => ({ name: s.name, after: peers(s) }))
  )
  // A cycle of CONNECTs cannot be ordered; take the rest as written, one at a time.
  waves.push(...unordered.map(name => [name]))
  const commands = serviceCommands(topology, addressing)
  return waves.map(wave => wave.map(name => commands.filter(c => c.service === name)))
}
