import type Docker from 'dockerode'
import { unsupportedVersion } from '../../config/gnes-version'
import { createHash } from 'node:crypto'
import * as fs from 'node:fs'
import * as path from 'node:path'
import type { GnesMeta } from '../gnes-meta'
import { runOnce } from './container'
import { ensurePypiImage, ensureSourceImage } from './gnes-image'
import { badInput as bad, build, imageExists, pull } from './image-build'

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
  /**
   * A GNES source tree built with the shipped Dockerfile (`gnes-source`); `archives` keeps the
   * deps image it builds on.
   */
  | { kind: 'source'; dir: string; baseImage: string; archives: string | null }

/** A user build is tagged by where it comes from, so rebuilding the same checkout reuses its tag. */
export function customImageTag(context: string, dockerfile: string): string {
  const hash = createHash('sha256').update(`${context}\n${dockerfile}`).digest('hex').slice(0, 12)
  return `gnes-latency-bench/custom:${hash}`
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
      return ensurePypiImage(docker, src, log)
    case 'source':
      return ensureSourceImage(docker, src, log)
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
