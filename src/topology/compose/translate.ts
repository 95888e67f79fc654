import * as path from 'node:path'
import { name as serviceName } from '../fields'
import { inWaves } from '../waves'
import { BenchBlockSchema, type BenchBlock } from './bench-block'
import type { Lookup } from './interpolate'
import type { ComposeKey } from './mounts'
import { containerPorts } from './ports'
import { Problem } from './problem'
import { nativeService, type NativeService } from './service'
import { isObj, type Obj } from './obj'

/**
 * A Compose model (files normalized, merged and checked) compiled into the data of a native
 * `kind: http` topology, which the native schema then validates like any topology file. Pure:
 * variables and env files arrive read. Throws a `Problem` whose key is the place in the file.
 */
export interface ComposeModel {
  /** The first file: ids, the project name and every relative path come from it. */
  file: string
  data: Record<string, unknown>
  lookup: Lookup
  envFiles: ReadonlyMap<string, Record<string, string>>
}

/** The services `docker compose up` starts: those without profiles, or of an active one. */
function running(data: Obj, lookup: Lookup): [string, Obj][] {
  const active = (lookup('COMPOSE_PROFILES') ?? '').split(',').filter(Boolean)
  return Object.entries(isObj(data.services) ? data.services : {}).flatMap(([n, s]) => {
    const profiles = ((s as Obj).profiles as string[] | undefined) ?? []
    return !profiles.length || profiles.some(p => active.includes(p)) ? [[n, s as Obj]] : []
  })
}

function benchBlock(data: Obj): BenchBlock {
  const raw = data['x-latency-bench']
  if (raw === undefined) {
    throw new Problem(
      'x-latency-bench',
      'missing: add x-latency-bench: {load: {service: NAME}} to say which service the load enters'
    )
  }
  const parsed = BenchBlockSchema.safeParse(raw)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]
  throw new Problem(['x-latency-bench', ...issue.path].join('.'), issue.message)
}

/** The load service's port: the one the block names, or its only container port. */
function loadPort(block: BenchBlock, ports: readonly number[]): number {
  if (block.load.port !== undefined) return block.load.port
  if (ports.length === 1) return ports[0]
  throw new Problem(
    'x-latency-bench.load.port',
    `'${block.load.service}' has ${ports.length ? `several container ports (${ports.join(', ')})` : 'no container port in expose or ports'}: name the one the load enters`
  )
}

/** Dependencies form no cycle, and a `service_healthy` one has a health check to wait for. */
function checkDependencies(services: [string, Obj][]): void {
  const deps = (s: Obj) => Object.entries(isObj(s.depends_on) ? s.depends_on : {})
  const names = services.map(([n]) => n)
  const { unordered } = inWaves(
    services.map(([name, s]) => ({
      name,
      after: deps(s)
        .map(([d]) => d)
        .filter(d => names.includes(d))
    }))
  )
  if (unordered.length) {
    throw new Problem(
      `services.${unordered[0]}.depends_on`,
      `depends_on forms a cycle among ${unordered.join(', ')}`
    )
  }
  const byName = new Map(services)
  for (const [name, s] of services) {
    for (const [dep, spec] of deps(s)) {
      const hc = byName.get(dep)?.healthcheck
      const checked = isObj(hc) && hc.disable !== true && hc.test !== undefined
      if ((spec as Obj).condition === 'service_healthy' && byName.has(dep) && !checked) {
        throw new Problem(
          `services.${name}.depends_on.${dep}`,
          `service_healthy, but '${dep}' has no healthcheck to wait for`
        )
      }
    }
  }
}

/** Each service translated, its problems placed under `services.NAME`. */
function services(model: ComposeModel, run: [string, Obj][], block: BenchBlock): NativeService[] {
  const dir = path.dirname(path.resolve(model.file))
  const project = String(
    model.data.name ?? model.lookup('COMPOSE_PROJECT_NAME') ?? path.basename(dir)
  )
  const names = run.map(([n]) => n)
  return run.map(([name, s]) => {
    try {
      const ports = containerPorts(s)
      const port =
        name === block.load.service ? loadPort(block, ports) : ports.length === 1 ? ports[0] : null
      return nativeService(name, s, { ...model, dir, project, names, port })
    } catch (err) {
      if (!(err instanceof Problem) || err.key.startsWith('x-latency-bench')) throw err
      throw new Problem(`services.${name}.${err.key}`, err.message)
    }
  })
}

/** The id a file gives a case when its block names none: the file's name, as a slug. */
const fileId = (file: string): string =>
  path
    .basename(file)
    .replace(/\.ya?ml$/i, '')
    .replace(/[^A-Za-z0-9_.-]/g, '-')
    .replace(/^[.]+|[.]+$/g, '') || 'compose'

/** The native topology's data, and the entry each of its mounts comes from. */
export interface Translated {
  data: Record<string, unknown>
  /** By the native service's index, then the mount's: `volumes.2`, `tmpfs.0`, `secrets.1`. */
  mountKeys: ComposeKey[][]
}

export function nativeTopology(model: ComposeModel): Translated {
  const run = running(model.data, model.lookup)
  const block = benchBlock(model.data)
  if (!run.some(([n]) => n === block.load.service)) {
    throw new Problem(
      'x-latency-bench.load.service',
      `no service named '${block.load.service}' runs`
    )
  }
  for (const [n] of run) {
    const bad = serviceName.safeParse(n)
    if (!bad.success) throw new Problem(`services.${n}`, bad.error.issues[0].message)
  }
  checkDependencies(run)
  const id = block.id ?? fileId(model.file)
  const load = Object.fromEntries(Object.entries(block.load).filter(([k]) => k !== 'port'))
  const translated = services(model, run, block)
  const data = {
    id,
    name: block.name ?? (typeof model.data.name === 'string' ? model.data.name : id),
    ...(block.description !== undefined ? { description: block.description } : {}),
    ...(block.notes !== undefined ? { notes: block.notes } : {}),
    ...(block.minimalRate !== undefined ? { minimalRate: block.minimalRate } : {}),
    ...(block.thresholds !== undefined ? { thresholds: block.thresholds } : {}),
    kind: 'http',
    services: translated.map(s => ({ ...s, mounts: s.mounts.map(m => m.mount) })),
    load,
    ...(block.hops !== undefined ? { hops: block.hops } : {})
  }
  return { data, mountKeys: translated.map(s => s.mounts.map(m => m.key)) }
}
