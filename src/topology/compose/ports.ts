/**
 * The TCP ports a service's containers listen on, read from `expose` and from the container side
 * of `ports` (short or long form, ranges included). No port is published to the host: the load
 * reaches the service on the topology network, as its neighbours do.
 */
import { Problem } from './problem'
import type { Obj } from './obj'

/** `80`, `80/tcp`, `8000-8002`: the ports of one container-side spec; none for UDP or SCTP. */
function containerSide(spec: string): number[] {
  const [range, protocol = 'tcp'] = spec.split('/')
  if (protocol !== 'tcp') return []
  const m = /^(\d+)(?:-(\d+))?$/.exec(range)
  if (!m) throw new Error(`'${spec}' is not a container port or range`)
  const [from, to] = [Number(m[1]), Number(m[2] ?? m[1])]
  if (from < 1 || to > 65535 || to < from) throw new Error(`'${spec}' is not a port range`)
  return Array.from({ length: to - from + 1 }, (_, i) => from + i)
}

/** One item of `ports`: `8080:80`, `127.0.0.1:8080:80/tcp`, `[::1]:8080:80`, 80, or the long form. */
function portsItem(item: unknown): number[] {
  if (typeof item === 'number') return containerSide(String(item))
  if (item && typeof item === 'object') {
    const { target, protocol = 'tcp' } = item as Obj
    return containerSide(`${String(target)}/${String(protocol)}`)
  }
  const text = String(item)
  const [spec, protocol] = text.split('/')
  const container = spec.slice(spec.lastIndexOf(':') + 1)
  return containerSide(protocol ? `${container}/${protocol}` : container)
}

/** The distinct container ports, in the order written; throws with the item that is not one. */
export function containerPorts(service: Obj): number[] {
  const read = (key: string, each: (item: unknown) => number[]): number[] =>
    ((service[key] as unknown[] | undefined) ?? []).flatMap((item, i) => {
      try {
        return each(item)
      } catch (err) {
        throw new Problem(`${key}.${i}`, (err as Error).message)
      }
    })
  return [
    ...new Set([...read('expose', e => containerSide(String(e))), ...read('ports', portsItem)])
  ]
}
