import * as path from 'node:path'
import type { MergeTag } from '../yaml'
import { isObj, type Obj } from './obj'

/**
 * Several Compose files merged in order, as `docker compose -f a.yml -f b.yml` merges them
 * (compose-spec `13-merge.md`), for the keys the benchmark reads: mappings merge key by key,
 * a later scalar replaces an earlier one, sequences are appended (an item already there is not
 * added twice; a service's `volumes`, `secrets` and `configs` merge by target), and `command`, `entrypoint` and `healthcheck.test` are replaced whole. A value
 * tagged `!reset` removes what the earlier files set there; one tagged `!override` replaces it
 * whole. Files are normalized first (normalize.ts), so `environment` lists and mappings merge alike.
 */

export interface MergeInput {
  data: Obj
  tags: readonly MergeTag[]
}

const REPLACED = new Set(['command', 'entrypoint', 'test'])

/** A `/run/secrets/x`-style target: a long entry's `target`, else its source (a short entry). */
const fileTarget =
  (dir: string) =>
  (v: unknown): string => {
    const item = isObj(v) ? v : { source: v }
    return path.posix.resolve(dir, String(item.target ?? item.source))
  }

/**
 * A service's lists whose items are unique by the path they mount at (compose-spec's "unique
 * resources"): an item of a later file replaces the one at its target, in its place.
 */
const BY_TARGET: Record<string, (item: unknown) => string> = {
  volumes: v => {
    if (isObj(v)) return String(v.target)
    const parts = String(v).split(':')
    return parts[parts.length === 1 ? 0 : 1]
  },
  secrets: fileTarget('/run/secrets'),
  configs: fileTarget('/')
}

function byTarget(base: unknown[], over: unknown[], target: (item: unknown) => string) {
  const later = new Map(over.map(v => [target(v), v]))
  const merged = base.map(v => later.get(target(v)) ?? v)
  const had = new Set(base.map(target))
  return [...merged, ...over.filter(v => !had.has(target(v)))]
}

function mergeValue(key: string, base: unknown, over: unknown): unknown {
  if (over === undefined) return base
  if (isObj(base) && isObj(over)) return mergeObjects(base, over)
  if (Array.isArray(base) && Array.isArray(over) && BY_TARGET[key]) {
    return byTarget(base, over, BY_TARGET[key])
  }
  if (Array.isArray(base) && Array.isArray(over) && !REPLACED.has(key)) {
    const seen = new Set(base.map(v => JSON.stringify(v)))
    return [...base, ...over.filter(v => !seen.has(JSON.stringify(v)))]
  }
  return over
}

function mergeObjects(base: Obj, over: Obj): Obj {
  const out: Obj = { ...base }
  for (const [k, v] of Object.entries(over)) out[k] = mergeValue(k, base[k], v)
  return out
}

/** `data` without the value at `path` (copied along the path, the rest shared). */
export function without(data: Obj, path: readonly string[]): Obj {
  const [head, ...rest] = path
  if (!(head in data)) return data
  if (!rest.length) return Object.fromEntries(Object.entries(data).filter(([k]) => k !== head))
  const inner = data[head]
  return isObj(inner) ? { ...data, [head]: without(inner, rest) } : data
}

/** A file's data without its `!reset` values, which set nothing but remove. */
export const withoutResets = (data: Obj, tags: readonly MergeTag[]): Obj =>
  tags.filter(t => t.tag === 'reset').reduce((d, t) => without(d, t.path), data)

export const mergeFiles = (files: readonly MergeInput[]): Obj =>
  files.reduce<Obj>(
    (base, { data, tags }) =>
      mergeObjects(
        tags.reduce((b, t) => without(b, t.path), base),
        withoutResets(data, tags)
      ),
    {}
  )
