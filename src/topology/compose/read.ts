import * as fs from 'node:fs'
import * as path from 'node:path'
import { topologyError, TopologyError } from '../errors'
import { LIMITS } from '../fields'
import type { MergeTag } from '../yaml'
import { refusals, type Refusal } from './checks'
import { parseDotenv } from './dotenv'
import { interpolateTree, InterpolationError, type Lookup, type OnUnset } from './interpolate'
import { SERVICE_KEYS, TOP_KEYS } from './keys'
import { mergeFiles, withoutResets } from './merge'
import { normalizeFile } from './normalize'
import { Problem } from './problem'
import { specProblems } from './spec'
import { nativeTopology, type Translated } from './translate'
import { isObj, type Obj } from './obj'

/**
 * Compose files (parsed YAML, in merge order) compiled into native topology data: each file
 * interpolated and validated against the Compose Specification, then merged (`!reset` and
 * `!override` as Compose merges them) and checked for refused keys, every problem of every file
 * reported at once, then translated. The I/O edge of compose/: it reads the `.env` beside the first file and
 * the services' env files. Every error names the file, and the service and key; what Compose would
 * warn of (a variable read as a blank string) comes back as notes.
 */
export interface ComposeFile {
  file: string
  data: unknown
  /** Its `!reset` and `!override` values. */
  tags?: readonly MergeTag[]
}

/** A Compose file: a top-level `services` mapping (a native file has a list) or the bench block. */
export const isCompose = (data: unknown): boolean =>
  !!data &&
  typeof data === 'object' &&
  !Array.isArray(data) &&
  ((!!(data as Obj).services &&
    typeof (data as Obj).services === 'object' &&
    !Array.isArray((data as Obj).services)) ||
    'x-latency-bench' in data)

function readSmall(file: string, label: string, where: string): string {
  try {
    const size = fs.statSync(file).size
    if (size > LIMITS.fileBytes) throw new Error(`larger than ${LIMITS.fileBytes} bytes`)
    return fs.readFileSync(file, 'utf8')
  } catch (err) {
    throw topologyError(label, where, `cannot read ${file}: ${(err as Error).message}`)
  }
}

/** The process environment, then the `.env` beside the first file (Compose's order). */
function variables(first: string, env: NodeJS.ProcessEnv, unset: OnUnset): Lookup {
  const outer: Lookup = n => env[n]
  const dotenv = path.join(path.dirname(path.resolve(first)), '.env')
  if (!fs.existsSync(dotenv)) return outer
  let vars: Record<string, string>
  try {
    vars = parseDotenv(readSmall(dotenv, first, '.env'), outer, unset)
  } catch (err) {
    if (!(err instanceof InterpolationError)) throw err
    throw topologyError(dotenv, '(top level)', err.message)
  }
  return n => env[n] ?? vars[n]
}

/** A problem of one file, before anything is merged. */
interface Found {
  file: string
  where: string
  msg: string
}

/** A variable read as a blank string, at a place of a file. */
interface Blank {
  name: string
  file: string
  where: string
}

/**
 * Compose's warning for each variable read as a blank string, once per variable with every place
 * that reads it (each naming its file where the places lie in several).
 */
function blankNotes(blanks: readonly Blank[]): string[] {
  const files = new Set(blanks.map(b => b.file))
  const places = new Map<string, Set<string>>()
  for (const b of blanks) {
    const at = files.size > 1 ? `${b.where} (in ${b.file})` : b.where
    places.set(b.name, (places.get(b.name) ?? new Set()).add(at))
  }
  return [...places].map(
    ([name, at]) =>
      `the variable ${name} is not set: it reads as a blank string, as in Compose (at ${[...at].join(', ')}); set it in the environment or .env, or write \${${name}:-default}`
  )
}

/**
 * A note for each service whose build names `cache_from`: BuildKit would read that cache from a
 * registry, which a run cannot count on reaching, so it is left out; the daemon's own build
 * cache still serves every build after the first.
 */
function cacheFromNotes(merged: Obj): string[] {
  const services = isObj(merged.services) ? merged.services : {}
  return Object.entries(services)
    .filter(([, s]) => isObj(s) && isObj(s.build) && s.build.cache_from !== undefined)
    .map(
      ([name]) =>
        `services.${name}.build.cache_from is ignored: BuildKit reads it from a registry, which a run cannot count on reaching; the daemon's own build cache serves every build after the first`
    )
}

/** Every problem, each at its place; the files named where they are not all the same one. */
function problemsError(found: readonly Found[]): TopologyError {
  const files = [...new Set(found.map(f => f.file))]
  const lines = found.map(
    f => `  at ${f.where}: ${f.msg}${files.length > 1 ? ` (in ${f.file})` : ''}`
  )
  return new TopologyError(`${files.join('+')}: invalid topology:\n${lines.join('\n')}`)
}

/** `!reset` and `!override` apply to a key the specification knows, not to a list item. */
function tagProblems(tags: readonly MergeTag[]): Refusal[] {
  return tags.flatMap(({ tag, path: keys }) => {
    const where = keys.join('.') || '(top level)'
    const known =
      keys.length === 1
        ? keys[0] in TOP_KEYS
        : keys[0] !== 'services' || keys.length !== 3 || keys[2] in SERVICE_KEYS
    if (keys.some(k => /^\d+$/.test(k)) || !keys.length) {
      return [{ where, msg: `!${tag} applies to a key, not to a list item or the whole file` }]
    }
    return known || keys[keys.length - 1].startsWith('x-')
      ? []
      : [{ where, msg: `!${tag} on an unknown key (not in the Compose Specification)` }]
  })
}

/** A service's keys left empty (`environment:`), which Compose reads as not set. */
function withoutNulls(data: Obj): Obj {
  const services = data.services
  if (!services || typeof services !== 'object' || Array.isArray(services)) return data
  const kept = Object.entries(services as Obj).map(([name, s]) => [
    name,
    s && typeof s === 'object' && !Array.isArray(s)
      ? Object.fromEntries(Object.entries(s).filter(([, v]) => v !== null))
      : s
  ])
  return { ...data, services: Object.fromEntries(kept) }
}

/** One file interpolated, its tags and schema checked and normalized; or its problems. */
function checkedFile(
  { file, data, tags = [] }: ComposeFile,
  lookup: Lookup,
  blanks: Blank[]
): Found[] | Obj {
  if (!isCompose(data)) {
    return [{ file, where: '(top level)', msg: 'not a Compose file (no services mapping)' }]
  }
  const found: Found[] = tagProblems(tags).map(p => ({ file, ...p }))
  const report = {
    fail: (where: string, msg: string): never => {
      found.push({ file, where, msg })
      return '' as never
    },
    unset: (where: string, name: string) => blanks.push({ name, file, where })
  }
  const tree = interpolateTree(data, lookup, report) as Obj
  const interpolated = withoutNulls(withoutResets(tree, tags))
  // A value that failed to interpolate would only fail the schema again.
  if (!found.length) found.push(...specProblems(interpolated).map(p => ({ file, ...p })))
  return found.length ? found : normalizeFile(interpolated)
}

/** Every refused key of the merged files, at the file that last sets it. */
function refusedKeys(merged: Obj, files: readonly ComposeFile[]): Found[] {
  return refusals(merged).map(r => {
    const setting = files.filter(f => has(f.data, r.where.split('.')))
    return { file: (setting[setting.length - 1] ?? files[0]).file, ...r }
  })
}

const has = (data: unknown, keys: readonly string[]): boolean =>
  !keys.length ||
  (!!data &&
    typeof data === 'object' &&
    keys[0] in data &&
    has((data as Obj)[keys[0]], keys.slice(1)))

/** Every env file the services name, read (relative paths from the first file's directory). */
function envFiles(merged: Obj, dir: string, label: string, lookup: Lookup, blanks: Blank[]) {
  const named = Object.entries((merged.services as Obj | undefined) ?? {}).flatMap(([name, s]) =>
    (((s as Obj).env_file as Obj[] | undefined) ?? []).map((f, i) => ({
      where: `services.${name}.env_file.${i}`,
      file: path.resolve(dir, String(f.path)),
      required: f.required !== false
    }))
  )
  const read = new Map<string, Record<string, string>>()
  for (const { where, file, required } of named) {
    if (read.has(file)) continue
    if (!fs.existsSync(file)) {
      if (required) throw topologyError(label, where, `${file} does not exist`)
      continue
    }
    try {
      const unset = (name: string) => blanks.push({ name, file, where })
      read.set(file, parseDotenv(readSmall(file, label, where), lookup, unset))
    } catch (err) {
      if (!(err instanceof InterpolationError)) throw err
      throw topologyError(label, where, `${file}: ${err.message}`)
    }
  }
  return read
}

/** The native topology's data, its mounts' entries, and what Compose would have warned of. */
export interface Compiled extends Translated {
  notes: string[]
}

export function compileCompose(files: readonly ComposeFile[], env = process.env): Compiled {
  const first = files[0].file
  const label = files.map(f => f.file).join('+')
  const blanks: Blank[] = []
  const lookup = variables(first, env, name => blanks.push({ name, file: first, where: '.env' }))
  const checked = files.map(f => checkedFile(f, lookup, blanks))
  const found = checked.filter(Array.isArray).flat()
  if (found.length) throw problemsError(found)
  const merged = mergeFiles(
    checked.map((data, i) => ({ data: data as Obj, tags: files[i].tags ?? [] }))
  )
  const refused = refusedKeys(merged, files)
  if (refused.length) throw problemsError(refused)
  const dir = path.dirname(path.resolve(first))
  try {
    const translated = nativeTopology({
      file: first,
      data: merged,
      lookup,
      envFiles: envFiles(merged, dir, label, lookup, blanks)
    })
    return { ...translated, notes: [...blankNotes(blanks), ...cacheFromNotes(merged)] }
  } catch (err) {
    if (err instanceof Problem) throw topologyError(label, err.key, err.message)
    throw err
  }
}
