import type { Service, Socket, Topology } from '../../topology/schema'

/**
 * GNES command lines for a topology in containers. Every service has its own network namespace,
 * so the ports can be fixed (the legacy ones) and two suites still run side by side.
 */
export const GRPC_PORT = 5566
export const ROUTE_DUMP = '/tmp/gnes-route-dump.jsonl'
const FRONTEND = { in: 57908, out: 53463 }
const ROUTER = { in: 57909, out: 57911 }

const portsOf = (s: Service) => (s.role === 'frontend' ? FRONTEND : ROUTER)

/** The address a CONNECT socket dials: the peer's output for `in`, its input for `out`. */
function socketArgs(side: 'in' | 'out', sock: Socket, own: number, topology: Topology): string[] {
  const args = [`--socket_${side}`, sock.socket]
  if (!('peer' in sock)) return [...args, `--port_${side}`, String(own)]
  const peer = topology.services.find(p => p.name === sock.peer)!
  const port = side === 'in' ? portsOf(peer).out : portsOf(peer).in
  return [...args, `--port_${side}`, String(port), `--host_${side}`, sock.peer]
}

/** `gnes <cmd>` arguments of one service (the image's entrypoint is `gnes`). */
export function serviceArgs(s: Service, topology: Topology): string[] {
  if (s.role === 'frontend') {
    return [
      'frontend',
      ...['--grpc_port', String(GRPC_PORT)],
      ...['--port_out', String(FRONTEND.out), '--socket_out', 'PUSH_BIND'],
      ...['--port_in', String(FRONTEND.in), '--socket_in', 'PULL_BIND'],
      ...['--dump_route', ROUTE_DUMP],
      ...s.args
    ]
  }
  return [
    'route',
    ...socketArgs('in', s.in, ROUTER.in, topology),
    ...socketArgs('out', s.out, ROUTER.out, topology),
    ...['--yaml_path', s.model],
    ...s.args
  ]
}

/** What a service logs once it serves: the frontend's gRPC server, a router's sockets. */
export const readyPattern = (s: Service): RegExp =>
  s.role === 'frontend' ? /listening at/ : /ready and listening/

/**
 * Start order: a service after the peers it connects to, so their DNS names already resolve when
 * it dials.
 */
export function startOrder(topology: Topology): Service[] {
  const peers = (s: Service): string[] =>
    s.role === 'frontend' ? [] : [s.in, s.out].flatMap(sock => ('peer' in sock ? [sock.peer] : []))
  const started = new Set<string>()
  const order: Service[] = []
  let rest = [...topology.services]
  while (rest.length) {
    const next = rest.filter(s => peers(s).every(p => started.has(p) || p === s.name))
    // A cycle of CONNECTs cannot be ordered; take the rest as written.
    const batch = next.length ? next : rest
    for (const s of batch) {
      started.add(s.name)
      order.push(s)
    }
    rest = rest.filter(s => !batch.includes(s))
  }
  return order
}
