import { dependencies, oneShots } from './depends'
import { fromTraces, isGrpcLoad, type ContainerService } from './http-schema'
import { addressedServices, placeholderProblem, usesPort } from './placeholders'
import type { HttpTopology, Topology } from './schema'
import { inWaves } from './waves'

type Fail = (where: string, msg: string) => never

/**
 * What the schema cannot say of a generic topology: names are unique, dependencies and
 * placeholders name its services and form no cycle, what needs a port has one, and the load
 * enters a service that serves.
 */
export function checkHttpTopology(t: HttpTopology, fail: Fail): void {
  const names = t.services.map(s => s.name)
  t.services.forEach((s, i) => {
    if (names.indexOf(s.name) !== i)
      fail(`services.${i}.name`, `duplicate service name '${s.name}'`)
  })
  t.services.forEach((s, i) => {
    dependencies(s).forEach((d, k) => {
      const where = `services.${i}.dependsOn.${k}`
      if (!names.includes(d.service)) fail(where, `no service named '${d.service}'`)
      if (d.service === s.name) fail(where, `'${s.name}' cannot depend on itself`)
    })
    for (const [where, text] of placeholderTexts(s, i)) {
      const problem = placeholderProblem(text, names, fromTraces(t.hops)) ?? portProblem(t, s, text)
      if (problem) fail(where, problem)
    }
    checkReady(s, i, fail)
  })
  checkLoad(t, fail)
  const cycle = dependencyCycle(t)
  if (cycle) fail('services', `dependsOn forms a cycle: ${cycle.join(' → ')}`)
}

/** Every text of a service that placeholders are filled into, with where it is. */
function placeholderTexts(s: ContainerService, i: number): [string, string][] {
  return [
    ...(s.command ?? []).map((a, k): [string, string] => [`services.${i}.command.${k}`, a]),
    ...(s.entrypoint ?? []).map((a, k): [string, string] => [`services.${i}.entrypoint.${k}`, a]),
    ...Object.entries(s.environment).map(([key, v]): [string, string] => [
      `services.${i}.environment.${key}`,
      v
    ])
  ]
}

/** A placeholder that asks for a port where there is none: its own, or a portless peer's. */
function portProblem(t: HttpTopology, s: ContainerService, text: string): string | null {
  if (s.port === undefined && usesPort(text)) {
    return `\${port}: '${s.name}' has no port`
  }
  const portless = addressedServices(text).find(
    peer => t.services.find(p => p.name === peer)?.port === undefined
  )
  return portless ? `'${portless}' has no port, so it has no address` : null
}

function checkReady(s: ContainerService, i: number, fail: Fail): void {
  if (s.ready && 'log' in s.ready) {
    try {
      new RegExp(s.ready.log)
    } catch (err) {
      fail(`services.${i}.ready.log`, `not a regular expression: ${(err as Error).message}`)
    }
  }
  if (s.ready && 'http' in s.ready && s.port === undefined) {
    fail(`services.${i}.ready.http`, `'${s.name}' has no port to ask`)
  }
}

/** The load enters a service that serves on a port and keeps serving (no one-shot job). */
function checkLoad(t: HttpTopology, fail: Fail): void {
  const entry = t.services.find(s => s.name === t.load.service)
  if (!entry) return fail('load.service', `no service named '${t.load.service}'`)
  if (entry.port === undefined) fail('load.service', `'${entry.name}' has no port to send to`)
  if (oneShots(t.services).has(entry.name)) {
    fail('load.service', `'${entry.name}' is a dependency with condition completed: it exits`)
  }
  if (isGrpcLoad(t.load) && t.hops && ('json' in t.hops || 'header' in t.hops)) {
    fail('hops', 'a gRPC load keeps no answer body or headers to read hops from')
  }
}

/** A cycle of dependsOn edges, as the names along it, or null. */
function dependencyCycle(t: HttpTopology): string[] | null {
  const deps = new Map(t.services.map(s => [s.name, dependencies(s).map(d => d.service)]))
  const state = new Map<string, 'open' | 'done'>()
  const visit = (n: string, trail: string[]): string[] | null => {
    if (state.get(n) === 'done') return null
    if (state.get(n) === 'open') return [...trail.slice(trail.indexOf(n)), n]
    state.set(n, 'open')
    for (const d of deps.get(n) ?? []) {
      const found = visit(d, [...trail, n])
      if (found) return found
    }
    state.set(n, 'done')
    return null
  }
  for (const s of t.services) {
    const found = visit(s.name, [])
    if (found) return found
  }
  return null
}

/** Services in waves of start order: each after everything it depends on. */
export function dependencyOrder(t: HttpTopology): string[][] {
  const { waves, unordered } = inWaves(
    t.services.map(s => ({ name: s.name, after: dependencies(s).map(d => d.service) }))
  )
  if (unordered.length) throw new Error(`dependsOn cycle among ${unordered.join(', ')}`)
  return waves
}

/** What the local engine cannot run of a topology: the first service it refuses, and why. */
export interface LocalRefusal {
  index: number
  service: string
  /** The refused key under the service (`entrypoint`), or '' for the service as a whole. */
  key: string
  /** Says what the service has: `has no command`. */
  problem: string
}

/**
 * What keeps the local engine from running this topology, or null: it runs each service's
 * command as a process, so it has no image, no entrypoint, no Docker health check, and no
 * one-shot job to wait on. A GNES topology always fits: its services run from GNES's venv.
 */
export function localEngineProblem(t: Topology): LocalRefusal | null {
  if (t.kind === 'gnes') return null
  const jobs = oneShots(t.services)
  for (const [index, s] of t.services.entries()) {
    const refuse = (key: string, problem: string): LocalRefusal => ({
      index,
      service: s.name,
      key,
      problem
    })
    if (!s.command) return refuse('', 'has no command')
    if (s.entrypoint) return refuse('entrypoint', 'has an entrypoint')
    if (s.mounts.length) return refuse('mounts', 'mounts files, volumes or a tmpfs')
    if (s.container) return refuse('container', 'has container settings (user, working_dir, ...)')
    if (s.ready && 'healthcheck' in s.ready) {
      return refuse('ready.healthcheck', "is ready by Docker's health check")
    }
    if (jobs.has(s.name))
      return refuse('', 'is a one-shot job (a dependency with condition completed)')
  }
  return null
}

/** Where a refusal is in its file: `services.2.entrypoint ('relay')`. */
export const refusalPlace = (r: LocalRefusal): string =>
  `services.${r.index}${r.key ? `.${r.key}` : ''} ('${r.service}')`
