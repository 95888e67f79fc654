import * as fs from 'node:fs'
import { parseDocument } from 'yaml'
import { assetPath } from '../paths'
import { TopologySchema, type Service, type Topology } from './schema'

export class TopologyError extends Error {}

/** Parses and validates one topology file; errors name the file, the path inside it and the rule. */
export function parseTopology(text: string, file: string): Topology {
  const doc = parseDocument(text, { prettyErrors: true })
  if (doc.errors.length > 0) {
    throw new TopologyError(`${file}: not valid YAML: ${doc.errors[0].message}`)
  }
  const parsed = TopologySchema.safeParse(doc.toJS())
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      i => `  at ${i.path.length ? i.path.join('.') : '(top level)'}: ${i.message}`
    )
    throw new TopologyError(`${file}: invalid topology:\n${lines.join('\n')}`)
  }
  checkWiring(parsed.data, file)
  return parsed.data
}

function checkWiring(t: Topology, file: string): void {
  const fail = (where: string, msg: string): never => {
    throw new TopologyError(`${file}: invalid topology:\n  at ${where}: ${msg}`)
  }
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
}

export function loadTopologyFile(file: string): Topology {
  let text: string
  try {
    text = fs.readFileSync(file, 'utf8')
  } catch (err) {
    throw new TopologyError(`${file}: cannot read topology file: ${(err as Error).message}`)
  }
  return parseTopology(text, file)
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
