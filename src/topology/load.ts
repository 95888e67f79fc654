import * as fs from 'node:fs'
import * as path from 'node:path'
import { assetPath } from '../paths'
import type { ComposeKey } from './compose/mounts'
import { compileCompose, isCompose, type ComposeFile } from './compose/read'
import { checkGrpcLoad } from './grpc-check'
import { checkHttpTopology } from './http-check'
import { isGrpcLoad } from './http-schema'
import { TopologySchema, type GnesTopology, type Service, type Topology } from './schema'
import { TopologyError } from './errors'
import { plainIssues } from './issues'
import { LIMITS } from './fields'
import { checkedMounts } from './mount-check'
import { yamlFile } from './yaml'

export { TopologyError }

/** Parses and validates one topology file; errors name the file, the path inside it and the rule. */
function checkSize(file: string, bytes: number): void {
  if (bytes > LIMITS.fileBytes) {
    throw new TopologyError(
      `${file}: a topology file is at most ${LIMITS.fileBytes} bytes (this one has ${bytes})`
    )
  }
}

/**
 * Where a native path lies in the file it came from: a Compose file names its services and its
 * `x-latency-bench` block instead of the compiled topology's list indexes.
 */
type Place = (where: string) => string

const nativePlace: Place = where => where

const BENCH_KEYS = [
  'id',
  'name',
  'description',
  'notes',
  'minimalRate',
  'load',
  'hops',
  'thresholds'
]

/**
 * Where a path of the compiled topology lies in the Compose files: under its service's name, a
 * mount at the entry it was made from (`mountKeys`, by service and mount index).
 */
function composePlace(data: Record<string, unknown>, mountKeys: readonly ComposeKey[][]): Place {
  const services = (Array.isArray(data.services) ? data.services : []) as { name?: unknown }[]
  return where => {
    const [head, index, ...rest] = where.split('.')
    if (head === 'services' && index !== undefined && /^\d+$/.test(index)) {
      const name = `services.${String(services[Number(index)]?.name ?? index)}`
      const [key, mount, ...inner] = rest
      const entry = key === 'mounts' ? mountKeys[Number(index)]?.[Number(mount)] : undefined
      const at = entry ? `${name}.${entry}` : name
      const native = entry ? inner : rest
      return native.length ? `${at} (as the native ${native.join('.')})` : at
    }
    return BENCH_KEYS.includes(head) ? `x-latency-bench.${where}` : where
  }
}

/** A topology as read, and what reading it would have had Compose warn of (a blank variable). */
export interface ReadTopology {
  topology: Topology
  notes: string[]
}

/** Parses and validates one topology file; errors name the file, the path inside it and the rule. */
function parseFile(text: string, file: string): ReadTopology {
  checkSize(file, Buffer.byteLength(text))
  const { data, tags } = yamlFile(text, file)
  if (isCompose(data)) return composeTopology([{ file, data, tags }])
  const dir = path.dirname(path.resolve(file))
  return { topology: nativeTopology(data, { file, dir }, nativePlace), notes: [] }
}

export const parseTopology = (text: string, file: string): Topology =>
  parseFile(text, file).topology

/** Compose files, merged in order, as the native topology they compile to. */
function composeTopology(files: ComposeFile[]): ReadTopology {
  const { data, mountKeys, notes } = compileCompose(files)
  const named = {
    file: files.map(f => f.file).join('+'),
    dir: path.dirname(path.resolve(files[0].file))
  }
  return { topology: nativeTopology(data, named, composePlace(data, mountKeys)), notes }
}

/** The native topology `data` holds, validated; every problem of the schema at once. */
function nativeTopology(
  data: unknown,
  { file, dir }: { file: string; dir: string },
  place: Place
): Topology {
  const parsed = TopologySchema.safeParse(data)
  if (!parsed.success) {
    const issues = plainIssues(parsed.error.issues)
    const lines = issues.map(
      i => `  at ${place(i.path.length ? i.path.join('.') : '(top level)')}: ${i.message}`
    )
    throw new TopologyError(`${file}: invalid topology:\n${lines.join('\n')}`)
  }
  const fail = (where: string, msg: string): never => {
    throw new TopologyError(`${file}: invalid topology:\n  at ${place(where)}: ${msg}`)
  }
  const t = parsed.data
  if (t.kind === 'gnes') {
    checkWiring(t, fail)
    return t
  }
  checkHttpTopology(t, fail)
  const mounted = checkedMounts(t.services, dir)
  if (mounted.problems.length) {
    const lines = mounted.problems.map(p => `  at ${place(p.where)}: ${p.msg}`)
    throw new TopologyError(`${file}: invalid topology:\n${lines.join('\n')}`)
  }
  // Build contexts and a .proto are relative to the (first) file, so the engine needs no idea where
  // it was read from; `file` is only a label (Compose files joined by '+', a character a path may hold).
  return {
    ...t,
    load: isGrpcLoad(t.load) ? checkGrpcLoad(t.load, dir, fail) : t.load,
    services: mounted.services.map(s =>
      s.build ? { ...s, build: { ...s.build, context: path.resolve(dir, s.build.context) } } : s
    )
  }
}

type Fail = (where: string, msg: string) => never

function checkWiring(t: GnesTopology, fail: Fail): void {
  const byName = new Map<string, Service>()
  t.services.forEach((s, i) => {
    if (byName.has(s.name)) fail(`services.${i}.name`, `duplicate service name '${s.name}'`)
    byName.set(s.name, s)
  })
  const frontends = t.services.filter(s => s.role === 'frontend')
  if (frontends.length !== 1) fail('services', 'exactly one service must have role frontend')
  t.services.forEach((s, i) => {
    if (s.role !== 'router') return
    for (const side of ['in', 'out'] as const) {
      const sock = s[side]
      const where = `services.${i}.${side}`
      if (side === 'in' && !sock.socket.startsWith('PULL')) fail(where, 'an input socket is PULL_*')
      if (side === 'out' && !sock.socket.startsWith('PUSH'))
        fail(where, 'an output socket is PUSH_*')
      if (!('peer' in sock)) {
        if (s.replicas > 1) fail(where, 'replicas > 1 cannot BIND one port; use a *_CONNECT socket')
        continue
      }
      const peer = byName.get(sock.peer)
      if (!peer) fail(`${where}.peer`, `no service named '${sock.peer}'`)
      if (peer!.role === 'frontend') continue
      const peerSide = side === 'in' ? peer!.out : peer!.in
      if ('peer' in peerSide) {
        fail(`${where}.peer`, `'${sock.peer}' must BIND its ${side === 'in' ? 'out' : 'in'} socket`)
      }
    }
  })
  checkRoute(t, frontends[0].name, fail)
}

/**
 * Requests leave the frontend and must come back to it: every router lies on a path from the
 * frontend's output to its input, or the client waits for responses that never arrive.
 */
function checkRoute(t: GnesTopology, frontend: string, fail: Fail) {
  const forward = new Map<string, string[]>(t.services.map(s => [s.name, []]))
  const backward = new Map<string, string[]>(t.services.map(s => [s.name, []]))
  const edge = (from: string, to: string) => {
    forward.get(from)!.push(to)
    backward.get(to)!.push(from)
  }
  for (const s of t.services) {
    if (s.role !== 'router') continue
    if ('peer' in s.in) edge(s.in.peer, s.name)
    if ('peer' in s.out) edge(s.name, s.out.peer)
  }
  /** Services reachable from the frontend along `edges`, the frontend itself only as an end. */
  const reach = (edges: Map<string, string[]>): Set<string> => {
    const seen = new Set<string>()
    const todo = [...edges.get(frontend)!]
    for (let n = todo.pop(); n !== undefined; n = todo.pop()) {
      if (seen.has(n)) continue
      seen.add(n)
      if (n !== frontend) todo.push(...edges.get(n)!)
    }
    return seen
  }
  const fromFrontend = reach(forward)
  const toFrontend = reach(backward)
  t.services.forEach((s, i) => {
    if (s.role !== 'router') return
    if (!fromFrontend.has(s.name)) {
      fail(`services.${i}`, `'${s.name}' receives nothing: no path leads to it from '${frontend}'`)
    }
    if (!toFrontend.has(s.name)) {
      fail(
        `services.${i}`,
        `'${s.name}' never returns to '${frontend}': no path leads back from it`
      )
    }
  })
}

function readTopologyFile(file: string): string {
  const read = <T>(get: () => T): T => {
    try {
      return get()
    } catch (err) {
      throw new TopologyError(`${file}: cannot read topology file: ${(err as Error).message}`)
    }
  }
  // A file too large is refused by its size, before it is read.
  checkSize(
    file,
    read(() => fs.statSync(file).size)
  )
  return read(() => fs.readFileSync(file, 'utf8'))
}

/**
 * The files of one case: `a.yml+b.yml` names Compose files merged in that order (a path that
 * exists as it is written is one file).
 */
export const topologyFiles = (spec: string): string[] =>
  spec.includes('+') && !fs.existsSync(spec) ? spec.split('+') : [spec]

/** One case's topology and its notes: a file, or Compose files joined with `+`. */
export function readTopology(spec: string): ReadTopology {
  const files = topologyFiles(spec)
  if (files.length === 1) return parseFile(readTopologyFile(spec), spec)
  const parsed = files.map(file => ({ file, ...yamlFile(readTopologyFile(file), file) }))
  const native = parsed.find(f => !isCompose(f.data))
  if (native) {
    throw new TopologyError(`${native.file}: only Compose files are merged (joined with +)`)
  }
  return composeTopology(parsed)
}

/** One case's topology: a file, or Compose files joined with `+`. */
export const loadTopologyFile = (spec: string): Topology => readTopology(spec).topology

/** The standard case ids (1..4) name shipped files; anything else must be a file path. */
export function resolveTopology(caseOrFile: string): ReadTopology & { file: string } {
  const file = /^\d+$/.test(caseOrFile)
    ? assetPath('topologies', `case${caseOrFile}.yml`)
    : caseOrFile
  if (/^\d+$/.test(caseOrFile) && !fs.existsSync(file)) {
    throw new TopologyError(`case '${caseOrFile}' is not a standard case (1, 2, 3, 4)`)
  }
  return { file, ...readTopology(file) }
}
