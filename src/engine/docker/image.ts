import type Docker from 'dockerode'
import { unsupportedVersion } from '../../config/gnes-version'
import { createHash } from 'node:crypto'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { pipeline } from 'node:stream/promises'
import { InputError } from '../../config/input-error'
import { assetPath } from '../../paths'
import type { GnesMeta } from '../gnes-meta'
import { readGnesSource, sourceFiles } from '../source-tree'
import { tarOf } from './archive'
import { statusOf } from './client'
import { runOnce } from './container'

/** How the engine gets its image: the four ways of the action's inputs. */
export type ImageSource =
  | { kind: 'ref'; ref: string }
  | { kind: 'dockerfile'; dockerfile: string; context: string }
  | {
      kind: 'pypi'
      version: string
      baseImage: string
      /** Where a missing build is loaded from and a new one saved to (DaemonSettings). */
      archives: string | null
    }
  /** A GNES source tree built with the shipped Dockerfile (`gnes-source`). */
  | { kind: 'source'; dir: string; baseImage: string }

const bad = (input: string, value: string, why: string): InputError =>
  new InputError(`Invalid input:\n  input '${input}' = '${value}': ${why}`)

const shippedDockerfile = (): Buffer => fs.readFileSync(assetPath('docker', 'Dockerfile'))

/** The tag of a PyPI build: its version, base and the shipped Dockerfile. */
export function pypiImageTag(version: string, baseImage: string): string {
  const hash = createHash('sha256')
    .update(`${version}\n${baseImage}\n`)
    .update(shippedDockerfile())
    .digest('hex')
    .slice(0, 12)
  return `gnes-latency-bench/gnes:${version}-${hash}`
}

/** A user build is tagged by where it comes from, so rebuilding the same checkout reuses its tag. */
export function customImageTag(context: string, dockerfile: string): string {
  const hash = createHash('sha256').update(`${context}\n${dockerfile}`).digest('hex').slice(0, 12)
  return `gnes-latency-bench/custom:${hash}`
}

async function imageExists(docker: Docker, ref: string): Promise<boolean> {
  try {
    await docker.getImage(ref).inspect()
    return true
  } catch (err) {
    if (statusOf(err) === 404) return false
    throw err
  }
}

/** The colour codes a build's stream wraps its stderr lines in. */
const COLOUR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g')

/** Follows a pull or build stream; logs progress sparsely; rejects on an error event. */
function follow(
  docker: Docker,
  stream: NodeJS.ReadableStream,
  log: (line: string) => void,
  tail: string[]
): Promise<void> {
  let lastLog = 0
  return new Promise((resolve, reject) => {
    docker.modem.followProgress(
      stream,
      (err: Error | null, events: { error?: string }[]) => {
        const failed = err?.message ?? events.find(e => e.error)?.error
        if (failed) reject(new Error(failed.trim()))
        else resolve()
      },
      (e: { stream?: string; status?: string; id?: string; progress?: string }) => {
        const line = (e.stream ?? [e.id, e.status, e.progress].filter(Boolean).join(' '))
          .replace(COLOUR, '')
          .trim()
        if (!line) return
        tail.push(line)
        if (tail.length > 40) tail.shift()
        // Layer progress arrives many times a second; steps and completions are what a log needs.
        const now = Date.now()
        if (!e.progress || now - lastLog > 5000) {
          lastLog = now
          log(line)
        }
      }
    )
  })
}

async function pull(
  docker: Docker,
  ref: string,
  input: string,
  log: (line: string) => void
): Promise<void> {
  log(`pulling ${ref}`)
  const tail: string[] = []
  try {
    await follow(docker, await docker.pull(ref), log, tail)
  } catch (err) {
    throw bad(input, ref, `image not found locally and the pull failed: ${(err as Error).message}`)
  }
}

/** Every file under `dir` for a build context; `.git` is left out as `docker build` users expect. */
function contextFiles(dir: string): { name: string; content: Buffer; mode: number }[] {
  const out: { name: string; content: Buffer; mode: number }[] = []
  const walk = (rel: string): void => {
    for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const name = path.posix.join(rel, entry.name)
      if (entry.name === '.git') continue
      if (entry.isDirectory()) walk(name)
      else if (entry.isFile()) {
        const full = path.join(dir, name)
        out.push({ name, content: fs.readFileSync(full), mode: fs.statSync(full).mode & 0o777 })
      }
    }
  }
  walk('')
  return out
}

/**
 * A build that failed: what was built, the step that failed and the build's last lines, which
 * hold the cause (a missing compiler, an unreachable index, a syntax error in a Dockerfile).
 */
export function buildFailure(what: string, message: string, tail: readonly string[]): Error {
  const step = [...tail].reverse().find(line => /^Step \d+\/\d+ :/.test(line))
  const output = tail.length ? `\nlast lines of the build:\n${tail.join('\n')}` : ''
  return new Error(
    `building ${what} failed${step ? ` at ${step}` : ''}: ${message.trim()}${output}`
  )
}

async function build(
  docker: Docker,
  files: { name: string; content: Buffer; mode?: number }[],
  options: Docker.ImageBuildOptions,
  what: string,
  log: (line: string) => void
): Promise<void> {
  log(`building ${options.t} (${what})`)
  const tail: string[] = []
  try {
    // forcerm: a failed step's container is removed too, so a broken build leaves nothing behind.
    const stream = await docker.buildImage(tarOf(files), { ...options, rm: true, forcerm: true })
    await follow(docker, stream, log, tail)
  } catch (err) {
    throw buildFailure(what, (err as Error).message, tail)
  }
}

/** The base to build on: on the daemon, or pulled. */
async function ensureBase(docker: Docker, base: string, log: (line: string) => void) {
  if (!(await imageExists(docker, base))) await pull(docker, base, 'base-image', log)
}

async function buildPypi(
  docker: Docker,
  src: Extract<ImageSource, { kind: 'pypi' }>,
  log: (line: string) => void
): Promise<string> {
  const tag = pypiImageTag(src.version, src.baseImage)
  const archive = src.archives && path.join(src.archives, archiveName(tag))
  // The archive is saved once per image, whichever way the daemon came to have it.
  const keep = async (): Promise<string> => {
    if (archive && !fs.existsSync(archive)) await saveArchive(docker, tag, archive, log)
    return tag
  }
  // A daemon without the image loads the archive an earlier job left, if the cache brought one.
  let present = await imageExists(docker, tag)
  const loaded = !present && !!archive && (await loadArchive(docker, archive, log))
  if (loaded) present = await imageExists(docker, tag)
  if (present) {
    const how = loaded ? 'loaded from its archive' : 'built before'
    log(`using ${tag} (GNES ${src.version} on ${src.baseImage}, ${how})`)
    return keep()
  }
  await ensureBase(docker, src.baseImage, log)
  log(`pip inside the build fetches GNES ${src.version} from the index and compiles it`)
  await build(
    docker,
    [
      { name: 'Dockerfile', content: shippedDockerfile() },
      { name: 'gnes-src/.keep', content: Buffer.alloc(0) }
    ],
    {
      t: tag,
      buildargs: {
        BASE_IMAGE: src.baseImage,
        GNES_VERSION: src.version,
        GNES_BUILD_DATE: new Date().toISOString()
      },
      labels: { 'io.gnes-latency-bench.base-image': src.baseImage }
    },
    `the GNES ${src.version} image from PyPI on ${src.baseImage}`,
    log
  )
  return keep()
}

/**
 * A source tree's image: the shipped Dockerfile with the tree as `gnes-src/`, tagged by the tree's
 * content and the base, so an unchanged checkout is not built again and two sides of a paired run
 * never share a tag unless their trees are the same.
 */
async function buildSource(
  docker: Docker,
  src: Extract<ImageSource, { kind: 'source' }>,
  log: (line: string) => void
): Promise<string> {
  const tree = readGnesSource(src.dir)
  const hash = createHash('sha256')
    .update(`${tree.hash}\n${src.baseImage}\n`)
    .update(shippedDockerfile())
    .digest('hex')
    .slice(0, 16)
  const tag = `gnes-latency-bench/gnes-source:${hash}`
  if (await imageExists(docker, tag)) {
    log(`using ${tag} (GNES from ${tree.dir} on ${src.baseImage}, built before)`)
    return tag
  }
  await ensureBase(docker, src.baseImage, log)
  const files = sourceFiles(tree.dir).map(f => ({ ...f, name: `gnes-src/${f.name}` }))
  await build(
    docker,
    [{ name: 'Dockerfile', content: shippedDockerfile() }, ...files],
    {
      t: tag,
      buildargs: {
        BASE_IMAGE: src.baseImage,
        GNES_VERSION: '',
        GNES_BUILD_DATE: new Date().toISOString(),
        GNES_VCS_VERSION: tree.commit ?? ''
      },
      labels: { 'io.gnes-latency-bench.base-image': src.baseImage }
    },
    `GNES from ${tree.dir} on ${src.baseImage}`,
    log
  )
  return tag
}

/** An archive's file name: the image reference with what a file name cannot hold replaced. */
const archiveName = (ref: string): string => `${ref.replace(/[^A-Za-z0-9._-]/g, '_')}.tar`

/**
 * Loads an image archive when there is one. A damaged archive costs a build, never the run: it
 * is reported and removed, and the image is built as if there were none.
 */
async function loadArchive(
  docker: Docker,
  file: string,
  log: (line: string) => void
): Promise<boolean> {
  if (!fs.existsSync(file)) return false
  const started = Date.now()
  try {
    await follow(docker, await docker.loadImage(fs.createReadStream(file)), () => undefined, [])
  } catch (err) {
    log(`cannot load ${file} (${(err as Error).message}); building the image instead`)
    fs.rmSync(file, { force: true })
    return false
  }
  log(`loaded ${file} in ${((Date.now() - started) / 1000).toFixed(1)} s`)
  return true
}

/**
 * Saves the image as an archive, so the next job on a fresh runner loads it instead of building.
 * Written beside and renamed: an archive is whole or absent. A failure costs the next job a build,
 * never this run.
 */
async function saveArchive(
  docker: Docker,
  ref: string,
  file: string,
  log: (line: string) => void
): Promise<void> {
  const started = Date.now()
  const partial = `${file}.partial`
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true })
    await pipeline(await docker.getImage(ref).get(), fs.createWriteStream(partial))
    fs.renameSync(partial, file)
  } catch (err) {
    fs.rmSync(partial, { force: true })
    log(`cannot save ${ref} to ${file}: ${(err as Error).message}`)
    return
  }
  const mb = fs.statSync(file).size / 1e6
  log(
    `saved ${ref} to ${file} (${mb.toFixed(0)} MB, ${((Date.now() - started) / 1000).toFixed(1)} s) for the cache`
  )
}

async function buildDockerfile(
  docker: Docker,
  src: Extract<ImageSource, { kind: 'dockerfile' }>,
  log: (line: string) => void
): Promise<string> {
  if (!fs.existsSync(src.dockerfile) || !fs.statSync(src.dockerfile).isFile()) {
    throw bad('dockerfile', src.dockerfile, 'no such file')
  }
  if (!fs.existsSync(src.context) || !fs.statSync(src.context).isDirectory()) {
    throw bad('docker-context', src.context, 'no such directory')
  }
  const context = path.resolve(src.context)
  const files = contextFiles(context)
  // A Dockerfile outside the context travels inside it under a name of its own.
  const rel = path.relative(context, path.resolve(src.dockerfile))
  const inside = !rel.startsWith('..') && !path.isAbsolute(rel)
  const dockerfile = inside ? rel.split(path.sep).join('/') : '.gnes-latency-bench.Dockerfile'
  if (!inside)
    files.push({ name: dockerfile, content: fs.readFileSync(src.dockerfile), mode: 0o644 })
  const tag = customImageTag(context, dockerfile)
  await build(docker, files, { t: tag, dockerfile }, `the image of ${src.dockerfile}`, log)
  return tag
}

/** How a generic service's image is built: its context, Dockerfile, build arguments and stage. */
export interface ServiceBuild {
  context: string
  dockerfile: string
  args?: Record<string, string>
  target?: string
}

/**
 * The tag of a service's build: the Dockerfile's name, its build arguments and target stage, and
 * every file of the context (name, mode, content), so any of them changed is another image.
 */
export function serviceImageTag(
  build: Omit<ServiceBuild, 'context'>,
  files: readonly { name: string; mode: number; content: Buffer }[]
): string {
  const args = Object.entries(build.args ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  const hash = createHash('sha256').update(`${build.dockerfile}\n`)
  // Arguments and target enter the hash only when given: a plain build's tag is its context's.
  if (args.length || build.target)
    hash.update(JSON.stringify({ args, target: build.target ?? null }))
  for (const f of files)
    hash.update(`${f.name}\n${f.mode}\n${f.content.length}\n`).update(f.content)
  return `gnes-latency-bench/service:${hash.digest('hex').slice(0, 16)}`
}

/**
 * A generic service's image, and the reference to run. With a build context it is built (with its
 * build arguments and target stage) and tagged by all of them (serviceImageTag), so a changed
 * service is measured, an unchanged one is not built again, and two sides of a paired run whose
 * files name the same `image` never share a tag. Without one: the image the topology names, on
 * the daemon or pulled.
 */
export async function ensureServiceImage(
  docker: Docker,
  service: { name: string; image: string; build?: ServiceBuild },
  log: (line: string) => void
): Promise<string> {
  const input = `topology service ${service.name}`
  if (!service.build) {
    if (!(await imageExists(docker, service.image))) await pull(docker, service.image, input, log)
    return service.image
  }
  const { context, dockerfile, args, target } = service.build
  if (!fs.existsSync(path.join(context, dockerfile))) {
    throw bad(input, service.image, `no ${dockerfile} in its build context ${context}`)
  }
  const files = contextFiles(context)
  const tag = serviceImageTag(service.build, files)
  if (await imageExists(docker, tag)) {
    log(`using ${tag} for ${service.image} (built from ${context} before)`)
    return tag
  }
  const options = {
    t: tag,
    dockerfile,
    ...(args ? { buildargs: args } : {}),
    ...(target ? { target } : {})
  }
  await build(docker, files, options, `${input} (${service.image})`, log)
  return tag
}

/**
 * Every service's image, by service name: what each one's containers or tasks run. Services with
 * the same image and build context (the five relays of a chain) are prepared once, one source
 * after the other so builds do not compete for the runner.
 */
export async function ensureServiceImages(
  docker: Docker,
  services: readonly { name: string; image: string; build?: ServiceBuild }[],
  log: (line: string) => void
): Promise<Map<string, string>> {
  const bySource = new Map<string, string>()
  const images = new Map<string, string>()
  for (const s of services) {
    const b = s.build
    const source = JSON.stringify([s.image, b?.context, b?.dockerfile, b?.args, b?.target])
    if (!bySource.has(source)) bySource.set(source, await ensureServiceImage(docker, s, log))
    images.set(s.name, bySource.get(source)!)
  }
  return images
}

/** Makes sure the image is on the daemon (pulls or builds it) and returns its reference. */
export async function ensureImage(
  docker: Docker,
  src: ImageSource,
  log: (line: string) => void
): Promise<string> {
  switch (src.kind) {
    case 'ref':
      if (!(await imageExists(docker, src.ref))) await pull(docker, src.ref, 'image', log)
      else log(`using image ${src.ref}`)
      return src.ref
    case 'dockerfile':
      return buildDockerfile(docker, src, log)
    case 'pypi':
      return buildPypi(docker, src, log)
    case 'source':
      return buildSource(docker, src, log)
  }
}

/** The input that chose the image, for messages. */
function sourceInput(src: ImageSource): [string, string] {
  if (src.kind === 'ref') return ['image', src.ref]
  if (src.kind === 'dockerfile') return ['dockerfile', src.dockerfile]
  if (src.kind === 'source') return ['gnes-source', src.dir]
  return ['gnes-version', src.version]
}

function isoOrNull(value: string | undefined): string | null {
  if (!value) return null
  const t = new Date(value)
  return Number.isNaN(t.getTime()) ? null : t.toISOString()
}

/**
 * GnesMeta from the image: env (GNES_VCS_VERSION, GNES_BUILD_DATE, GNES_VERSION) first, then the
 * usual OCI / label-schema labels; the version is asked of the image's Python when neither says.
 */
export async function imageMeta(
  docker: Docker,
  ref: string,
  src: ImageSource,
  labels: Record<string, string>
): Promise<GnesMeta> {
  const info = await docker.getImage(ref).inspect()
  const env = Object.fromEntries(
    (info.Config.Env ?? []).map(e => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)])
  )
  const lbl = info.Config.Labels ?? {}
  let version = env.GNES_VERSION || lbl['io.gnes-latency-bench.gnes-version'] || ''
  if (!version) {
    const r = await runOnce(docker, {
      name: `glb-version-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`,
      image: ref,
      entrypoint: ['python', '-c', 'import gnes; print(gnes.__version__)'],
      cmd: [],
      labels,
      timeoutMs: 120000
    })
    version = r.exitCode === 0 ? r.stdout.trim().split('\n').pop()!.trim() : ''
    if (!version) {
      const [input, value] = sourceInput(src)
      throw bad(input, value, `the image has no importable gnes package: ${r.stderr.trim()}`)
    }
  }
  const unsupported = unsupportedVersion(version)
  if (unsupported) {
    const [input, value] = sourceInput(src)
    throw bad(input, value, `the image has GNES ${version}: ${unsupported}`)
  }
  const refTag = /:([^/:]+)$/.exec(ref)?.[1]
  return {
    version,
    tag: src.kind === 'ref' ? (refTag ?? 'latest') : version,
    vcs:
      env.GNES_VCS_VERSION ||
      lbl['org.opencontainers.image.revision'] ||
      lbl['org.label-schema.vcs-ref'] ||
      null,
    buildDate: isoOrNull(
      env.GNES_BUILD_DATE ||
        lbl['org.opencontainers.image.created'] ||
        lbl['org.label-schema.build-date']
    )
  }
}
