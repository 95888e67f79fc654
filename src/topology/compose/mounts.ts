import * as path from 'node:path'
import { MAX_HANDED_BYTES, type Mount } from '../http-schema'
import type { Lookup } from './interpolate'
import { resetAdvice } from './keys'
import { Problem } from './problem'
import { isObj, type Obj } from './obj'

/**
 * A service's `volumes`, `tmpfs`, `secrets` and `configs` as native mounts (a secret or config
 * from a variable or inline `content` as text), each with the entry it is made from. Pure: paths
 * are resolved against the first file's directory here, and checked against the checkout where
 * the topology is loaded (load.ts), for Compose and native files alike. Throws a `Problem` naming
 * the key.
 */

/**
 * A service's entry a mount is made from: `volumes.2`, `tmpfs.0` (`tmpfs` where it is one path,
 * not a list), `secrets.1`, `configs.0`.
 */
export type ComposeKey = `${'volumes' | 'tmpfs' | 'secrets' | 'configs'}.${number}` | 'tmpfs'

/**
 * A compiled mount and its entry, which names what the native schema or the checkout refuses
 * (load.ts); the native format has no such field, so the key is taken off before validation.
 */
export interface PlacedMount {
  key: ComposeKey
  mount: Mount
}

/** `./conf:/etc/conf:ro`, `data:/var/lib/data`, `/scratch` as the long syntax. */
function longVolume(v: unknown): Obj {
  if (isObj(v)) return v
  const parts = String(v).split(':')
  if (parts.length === 1) return { type: 'volume', target: parts[0] }
  const [source, target, mode = ''] = parts
  const bind = /^[./~]/.test(source)
  return {
    type: bind ? 'bind' : 'volume',
    source,
    target,
    read_only: mode.split(',').includes('ro')
  }
}

const EXTERNAL =
  'an external volume holds state from outside the run: remove external (`external: !reset null`), and the benchmark creates it empty for each deployment'

/** One volume entry; `volumes` is the top-level mapping. */
function volumeMount(v: unknown, volumes: Obj, dir: string, at: ComposeKey): Mount {
  const m = longVolume(v)
  const target = String(m.target ?? '')
  if (m.type === 'tmpfs') {
    const size = isObj(m.tmpfs) ? m.tmpfs.size : undefined
    return { type: 'tmpfs', target, ...(size !== undefined ? { sizeBytes: bytes(size, at) } : {}) }
  }
  if (m.type === 'bind') {
    const source = String(m.source ?? '')
    if (source.startsWith('~')) {
      throw new Problem(
        at,
        `${source} is in a home directory: mount a path of the checkout, or ${resetAdvice('volumes', '[]', 'the mount')}`
      )
    }
    return { type: 'bind', source: path.resolve(dir, source), target, readOnly: !!m.read_only }
  }
  if (m.type !== 'volume') {
    throw new Problem(
      `${at}.type`,
      `'${String(m.type)}' mounts are not supported: bind, volume or tmpfs`
    )
  }
  if (m.source === undefined) return { type: 'volume', target }
  const name = String(m.source)
  const top = volumes[name]
  if (top === undefined) throw new Problem(at, `no top-level volume named '${name}'`)
  if (isObj(top) && top.external) throw new Problem(at, `volume '${name}': ${EXTERNAL}`)
  if (isObj(top) && top.driver_opts !== undefined) {
    throw new Problem(
      at,
      `volume '${name}': driver_opts can mount a path of the host: remove them (\`driver_opts: !reset {}\`), a local volume is created empty for each deployment`
    )
  }
  if (isObj(top) && top.driver !== undefined && top.driver !== 'local') {
    throw new Problem(
      at,
      `volume '${name}': the driver '${String(top.driver)}' is not supported: remove it, a local volume is created for each deployment`
    )
  }
  return { type: 'volume', source: name, target }
}

const UNITS: Record<string, number> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }

/** `64m`, `1gb` or a number of bytes. */
export function bytes(v: unknown, at: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*([kmg]?)b?$/i.exec(String(v).trim())
  if (!m) throw new Problem(at, `'${String(v)}' is not a size (e.g. 64m)`)
  return Math.round(Number(m[1]) * UNITS[m[2].toLowerCase()])
}

type FileKind = 'secrets' | 'configs'

/** Where a secret's or config's content comes from: a file of the checkout, or text. */
type Source = { file: string } | { content: string }

/**
 * A secret's or config's source, from the top-level entry `kind`.`name`: its `file` (relative to
 * the first file's directory), the value of its `environment` variable, or a config's `content`.
 */
function sourceOf(kind: FileKind, name: string, top: Obj, ctx: FileContext, at: string): Source {
  const one = kind.slice(0, -1)
  const entry = top[name]
  if (!isObj(entry)) throw new Problem(at, `no top-level ${one} named '${name}'`)
  if (entry.external) {
    throw new Problem(
      at,
      `${one} '${name}' is external (made outside the run): give it a file of the checkout (\`file: ./path\`)`
    )
  }
  if (entry.file !== undefined) return { file: path.resolve(ctx.dir, String(entry.file)) }
  if (entry.environment !== undefined) {
    const variable = String(entry.environment)
    const value = ctx.lookup(variable)
    if (value === undefined) {
      throw new Problem(
        at,
        `${one} '${name}' is the variable ${variable}, which is unset: set it in the environment the run starts in or in .env, or give the ${one} a file of the checkout (\`file: ./path\`)`
      )
    }
    return { content: value }
  }
  if (kind === 'configs' && entry.content !== undefined) return { content: String(entry.content) }
  throw new Problem(
    at,
    `${one} '${name}' has no file: write it to a file of the checkout (\`file: ./path\`)`
  )
}

/** What reads a secret's or config's source: the first file's directory and the variables. */
export interface FileContext {
  dir: string
  lookup: Lookup
}

/** `secrets` at /run/secrets/<target>, `configs` at their target, by default /<name>. */
function fileMounts(kind: FileKind, s: Obj, data: Obj, ctx: FileContext): PlacedMount[] {
  const list = Array.isArray(s[kind]) ? (s[kind] as unknown[]) : []
  const top = isObj(data[kind]) ? data[kind] : {}
  const as = kind === 'secrets' ? 'secret' : 'config'
  return list.map((item, i) => {
    const at: ComposeKey = `${kind}.${i}`
    const { source, target } = isObj(item) ? item : { source: item, target: undefined }
    const name = String(source)
    const from = sourceOf(kind, name, top, ctx, at)
    const to = String(target ?? name)
    const where =
      kind === 'secrets' ? path.posix.resolve('/run/secrets', to) : path.posix.resolve('/', to)
    if ('content' in from) {
      if (Buffer.byteLength(from.content) > MAX_HANDED_BYTES) {
        throw new Problem(
          at,
          `${as} '${name}' holds ${Buffer.byteLength(from.content)} bytes, over the ${MAX_HANDED_BYTES} a secret may: write it to a file of the checkout (\`file: ./path\`)`
        )
      }
      return { key: at, mount: { type: 'text', content: from.content, target: where, as } }
    }
    return {
      key: at,
      mount: { type: 'bind', source: from.file, target: where, readOnly: true, as }
    }
  })
}

/** Every mount of one service (normalized, merged), each with its entry. */
export function serviceMounts(s: Obj, data: Obj, ctx: FileContext): PlacedMount[] {
  const { dir } = ctx
  const volumes = isObj(data.volumes) ? data.volumes : {}
  // `tmpfs` is one path or a list of them.
  const tmpfs: [ComposeKey, unknown][] = Array.isArray(s.tmpfs)
    ? s.tmpfs.map((t, i) => [`tmpfs.${i}`, t])
    : s.tmpfs === undefined
      ? []
      : [['tmpfs', s.tmpfs]]
  return [
    ...((s.volumes as unknown[] | undefined) ?? []).map((v, i): PlacedMount => {
      const key: ComposeKey = `volumes.${i}`
      return { key, mount: volumeMount(v, volumes, dir, key) }
    }),
    ...tmpfs.map(([key, t]): PlacedMount => ({
      key,
      mount: { type: 'tmpfs', target: String(t).split(':')[0] }
    })),
    ...fileMounts('secrets', s, data, ctx),
    ...fileMounts('configs', s, data, ctx)
  ]
}
