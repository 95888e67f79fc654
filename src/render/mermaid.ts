import { mermaidLabel as label } from '../text/escape'
import { dependencies } from '../topology/depends'
import { routerModel } from '../topology/model'
import { isGrpcLoad } from '../topology/http-schema'
import { addressedServices } from '../topology/placeholders'
import type { HttpTopology, RouterService, Topology } from '../topology/schema'

const text = (v: unknown): string =>
  v !== null && typeof v === 'object' ? JSON.stringify(v) : String(v)

/** `BlockRouter sleep 1 s`: the router class and its parameters, as a reader says them. */
function modelLabel(className: string, parameters: Record<string, unknown>): string {
  const said = Object.entries(parameters).map(([k, v]) =>
    k === 'sleep_sec' ? `sleep ${text(v)} s` : `${k} ${text(v)}`
  )
  return [className, ...said].join(' ')
}

/**
 * A Mermaid flowchart of one topology, drawn Frontend → routers → Frontend (the Frontend appears
 * on both ends, as requests leave and return to it). Edges carry the hop metric that times them.
 * `nodes` (a swarm run's placement, by service) labels each service with its node when the run
 * used more than one node.
 */
export function topologyMermaid(t: Topology, nodes?: Record<string, string[]>): string {
  if (t.kind === 'http') return genericMermaid(t)
  const distinct = new Set(Object.values(nodes ?? {}).flat())
  const where = (name: string): string[] =>
    distinct.size > 1 && nodes?.[name]
      ? [`on ${[...new Set(nodes[name])].map(label).join(', ')}`]
      : []
  const routers = t.services.filter((s): s is RouterService => s.role === 'router')
  const frontend = t.services.find(s => s.role === 'frontend')!
  const index = new Map(routers.map((r, i) => [r.name, i + 1]))
  const short = (name: string): string => (index.has(name) ? `r${index.get(name)}` : 'f')
  const fe = [label(frontend.name), ...where(frontend.name)].join('<br/>')
  const lines = ['flowchart LR', `  f_in(["${fe}<br/>gRPC in"])`]
  for (const r of routers) {
    const { className, parameters } = routerModel(r.model)
    const parts = [
      `${label(r.name)} (r${index.get(r.name)})`,
      label(modelLabel(className, parameters)),
      r.replicas > 1 ? `× ${r.replicas} replicas` : '',
      ...where(r.name)
    ].filter(Boolean)
    const shape = r.replicas > 1 ? ['[["', '"]]'] : ['["', '"]']
    lines.push(`  r${index.get(r.name)}${shape[0]}${parts.join('<br/>')}${shape[1]}`)
    if (className === 'BlockRouter') lines.push(`  class r${index.get(r.name)} blocking`)
  }
  lines.push(`  f_out(["${fe}<br/>gRPC out"])`)
  const node = (name: string, side: 'from' | 'to'): string =>
    index.has(name) ? short(name) : side === 'from' ? 'f_in' : 'f_out'
  const edges = new Set<string>()
  for (const r of routers) {
    if ('peer' in r.in) edges.add(`${r.in.peer}\u0000${r.name}`)
    if ('peer' in r.out) edges.add(`${r.name}\u0000${r.out.peer}`)
  }
  for (const edge of edges) {
    const [from, to] = edge.split('\u0000')
    const metric = `${short(from)}->${short(to)}:send`
    lines.push(`  ${node(from, 'from')} -->|"${label(metric)}"| ${node(to, 'to')}`)
  }
  lines.push('  classDef blocking fill:#fde2e2,stroke:#c0392b')
  return lines.join('\n')
}

const MIB = 2 ** 20

/**
 * A generic topology: the load enters its service, and each service calls what it depends on or
 * addresses (a chain's relays need no start order, yet each calls the next). Nodes name the
 * service, its image, replicas and limits; nothing of GNES.
 */
function genericMermaid(t: HttpTopology): string {
  const id = new Map(t.services.map((s, i) => [s.name, `s${i + 1}`]))
  const call = isGrpcLoad(t.load) ? `gRPC ${t.load.grpc.call}` : `${t.load.method} ${t.load.path}`
  const lines = ['flowchart LR', `  load(["load<br/>${label(call)}"])`]
  for (const s of t.services) {
    const limits = [
      s.resources.cpus ? `${s.resources.cpus} CPU` : '',
      s.resources.memory ? `${Math.round(s.resources.memory / MIB)} MiB` : ''
    ].filter(Boolean)
    const parts = [
      label(s.name),
      label(s.image),
      s.replicas > 1 ? `× ${s.replicas} replicas` : '',
      limits.length ? label(limits.join(' · ')) : ''
    ].filter(Boolean)
    const shape = s.replicas > 1 ? ['[["', '"]]'] : ['["', '"]']
    lines.push(`  ${id.get(s.name)}${shape[0]}${parts.join('<br/>')}${shape[1]}`)
  }
  lines.push(`  load --> ${id.get(t.load.service)}`)
  for (const s of t.services) {
    const texts = [...(s.entrypoint ?? []), ...(s.command ?? []), ...Object.values(s.environment)]
    const calls = new Set([
      ...dependencies(s).map(d => d.service),
      ...texts.flatMap(addressedServices)
    ])
    calls.delete(s.name)
    for (const d of calls) lines.push(`  ${id.get(s.name)} --> ${id.get(d)}`)
  }
  return lines.join('\n')
}
