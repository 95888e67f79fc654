import * as fs from 'node:fs'
import * as path from 'node:path'
import { parseDocument } from 'yaml'
import { assetPath } from '../paths'
import { checkHttpTopology } from './http-check'
import { TopologySchema, type GnesTopology, type Service, type Topology } from './schema'
import { LIMITS } from './fields'

export class TopologyError extends Error {}

/** Parses and validates one topology file; errors name the file, the path inside it and the rule. */
function checkSize(file: string, bytes: number): void {
  if (bytes > LIMITS.fileBytes) {
    throw new TopologyError(
      `${file}: a topology file is at most ${LIMITS.fileBytes} bytes (this one has ${bytes})`
    )
  }
}

export function parseTopology(text: string, file: string): Topology {
  checkSize(file, Buffer.byteLength(text))
  const doc = parseDocument(text, { prettyErrors: true })
  if (doc.errors.length > 0) {
    throw new TopologyError(`${file}: not valid YAML: ${doc.errors[0].message}`)
  }
  let data: unknown
  try {
    // A topology has no use for aliases; a few are tolerated, a billion-laughs expansion is not.
    data = doc.toJS({ maxAliasCount: 10 })
  } catch (err) {
    throw new TopologyError(`${file}: not a plain YAML topology: ${(err as Error).message}`)
  }
  const parsed = TopologySchema.safeParse(data)
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      i => `  at ${i.path.length ? i.path.join('.') : '(top level)'}: ${i.message}`
    )
    throw new TopologyError(`${file}: invalid topology:\n${lines.join('\n')}`)
  }
  const fail = (where: string, msg: string): never => {
    throw new TopologyError(`${file}: invalid topology:\n  at ${where}: ${msg}`)
  }
  const t = parsed.data
  if (t.kind === 'gnes') {
    checkWiring(t, fail)
    return t
  }
  checkHttpTopology(t, fail)
  // Build contexts are relative to the file, so the engine needs no idea where it was read from.
  const dir = path.dirname(path.resolve(file))
  return {
    ...t,
    services: t.services.map(s =>
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

export function loadTopologyFile(file: string): Topology {
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
  return parseTopology(
    read(() => fs.readFileSync(file, 'utf8')),
    file
  )
}

/** The standard case ids (1..4) name shipped files; anything else must be a file path. */
export function resolveTopology(caseOrFile: string): { file: string; topology: Topology } {
  const file = /^\d+$/.test(caseOrFile)
    ? assetPath('topologies', `case${caseOrFile}.yml`)
    : caseOrFile
  if (/^\d+$/.test(caseOrFile) && !fs.existsSync(file)) {
    throw new TopologyError(`case '${caseOrFile}' is not a standard case (1, 2, 3, 4)`)
  }
  return { file, topology: loadTopologyFile(file) }
}
