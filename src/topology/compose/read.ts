import * as fs from 'node:fs'
import * as path from 'node:path'
import { topologyError } from '../errors'
import { LIMITS } from '../fields'
import { refusal } from './checks'
import { parseDotenv } from './dotenv'
import { interpolateTree, InterpolationError, type Lookup } from './interpolate'
import { mergeFiles } from './merge'
import { normalizeFile } from './normalize'
import { Problem } from './problem'
import { specProblem } from './spec'
import { nativeTopology } from './translate'

/**
 * Compose files (parsed YAML, in merge order) compiled into native topology data: each file
 * interpolated, validated against the Compose Specification and checked for refused keys, then
 * merged and translated. The I/O edge of compose/: it reads the `.env` beside the first file and
 * the services' env files. Every error names the file, and the service and key.
 */
export interface ComposeFile {
  file: string
  data: unknown
}

type Obj = Record<string, unknown>

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
function variables(first: string, env: NodeJS.ProcessEnv): Lookup {
  const outer: Lookup = n => env[n]
  const dotenv = path.join(path.dirname(path.resolve(first)), '.env')
  if (!fs.existsSync(dotenv)) return outer
  let vars: Record<string, string>
  try {
    vars = parseDotenv(readSmall(dotenv, first, '.env'), outer)
  } catch (err) {
    if (!(err instanceof InterpolationError)) throw err
    throw topologyError(dotenv, '(top level)', err.message)
  }
  return n => env[n] ?? vars[n]
}

/** One file interpolated, schema-checked, refusal-checked and normalized. */
function checkedFile({ file, data }: ComposeFile, lookup: Lookup): Obj {
  if (!isCompose(data)) {
    throw topologyError(file, '(top level)', 'not a Compose file (no services mapping)')
  }
  const fail = (where: string, msg: string): never => {
    throw topologyError(file, where, msg)
  }
  const interpolated = interpolateTree(data, lookup, fail) as Obj
  const problem = specProblem(interpolated) ?? refusal(interpolated)
  if (problem) fail(problem.where, problem.msg)
  return normalizeFile(interpolated)
}

/** Every env file the services name, read (relative paths from the first file's directory). */
function envFiles(merged: Obj, dir: string, label: string, lookup: Lookup) {
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
      read.set(file, parseDotenv(readSmall(file, label, where), lookup))
    } catch (err) {
      if (!(err instanceof InterpolationError)) throw err
      throw topologyError(label, where, `${file}: ${err.message}`)
    }
  }
  return read
}

export function compileCompose(files: readonly ComposeFile[], env = process.env): Obj {
  const first = files[0].file
  const label = files.map(f => f.file).join('+')
  const lookup = variables(first, env)
  const merged = mergeFiles(files.map(f => checkedFile(f, lookup)))
  const dir = path.dirname(path.resolve(first))
  try {
    return nativeTopology({
      file: first,
      data: merged,
      lookup,
      envFiles: envFiles(merged, dir, label, lookup)
    })
  } catch (err) {
    if (err instanceof Problem) throw topologyError(label, err.key, err.message)
    throw err
  }
}
