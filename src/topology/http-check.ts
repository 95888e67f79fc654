import { placeholderProblem } from './placeholders'
import type { HttpTopology } from './schema'
import { inWaves } from './waves'

type Fail = (where: string, msg: string) => never

/**
 * What the schema cannot say of a generic topology: names are unique, dependencies and
 * placeholders name its services and form no cycle, and the load enters one of them.
 */
export function checkHttpTopology(t: HttpTopology, fail: Fail): void {
  const names = t.services.map(s => s.name)
  t.services.forEach((s, i) => {
    if (names.indexOf(s.name) !== i)
      fail(`services.${i}.name`, `duplicate service name '${s.name}'`)
  })
  t.services.forEach((s, i) => {
    s.dependsOn.forEach((d, k) => {
      if (!names.includes(d)) fail(`services.${i}.dependsOn.${k}`, `no service named '${d}'`)
      if (d === s.name) fail(`services.${i}.dependsOn.${k}`, `'${s.name}' cannot depend on itself`)
    })
    s.command?.forEach((arg, k) => {
      const problem = placeholderProblem(arg, names)
      if (problem) fail(`services.${i}.command.${k}`, problem)
    })
    for (const [key, value] of Object.entries(s.environment)) {
      const problem = placeholderProblem(value, names)
      if (problem) fail(`services.${i}.environment.${key}`, problem)
    }
    if (s.ready && 'log' in s.ready) {
      try {
        new RegExp(s.ready.log)
      } catch (err) {
        fail(`services.${i}.ready.log`, `not a regular expression: ${(err as Error).message}`)
      }
    }
  })
  if (!names.includes(t.load.service)) fail('load.service', `no service named '${t.load.service}'`)
  const cycle = dependencyCycle(t)
  if (cycle) fail('services', `dependsOn forms a cycle: ${cycle.join(' → ')}`)
}

/** A cycle of dependsOn edges, as the names along it, or null. */
function dependencyCycle(t: HttpTopology): string[] | null {
  const deps = new Map(t.services.map(s => [s.name, s.dependsOn]))
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
  const { waves, unordered } = inWaves(t.services.map(s => ({ name: s.name, after: s.dependsOn })))
  if (unordered.length) throw new Error(`dependsOn cycle among ${unordered.join(', ')}`)
  return waves
}
