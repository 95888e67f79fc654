import type Docker from 'dockerode'
import { unsupportedVersion } from '../../config/gnes-version'
import { createHash } from 'node:crypto'
import * as fs from 'node:fs'
import * as path from 'node:path'
import type { GnesMeta } from '../gnes-meta'
import { runOnce } from './container'
import { ensurePypiImage, ensureSourceImage } from './gnes-image'
import { BuildContexts, contextTar, type BuildContext } from './build-context'
import { buildKitBuild } from './buildkit'
import { badInput as bad, imageExists, pull } from './image-build'

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

async function buildDockerfile(
  docker: Docker,
  src: Extract<ImageSource, { kind: 'dockerfile' }>,
  contexts: BuildContexts,
  log: (line: string) => void
): Promise<string> {
  if (!fs.existsSync(src.dockerfile) || !fs.statSync(src.dockerfile).isFile()) {
    throw bad('dockerfile', src.dockerfile, 'no such file')
  }
  if (!fs.existsSync(src.context) || !fs.statSync(src.context).isDirectory()) {
    throw bad('docker-context', src.context, 'no such directory')
  }
  const context = contexts.get(src.context, path.resolve(src.dockerfile), log)
  const tag = customImageTag(context.dir, context.dockerfile)
  await buildContext(docker, context, { t: tag }, `the image of ${src.dockerfile}`, log)
  return tag
}

/** The `# syntax=` line of a Dockerfile, if it has one (a parser directive: before any instruction). */
function syntaxLine(dockerfile: string): string | null {
  for (const line of fs.readFileSync(dockerfile, 'utf8').split(/\r?\n/)) {
    const directive = /^#\s*syntax\s*=\s*(\S+)/i.exec(line.trim())
    if (directive) return directive[1]
    if (!line.trim().startsWith('#')) return null
  }
  return null
}

/**
 * A context built with BuildKit. A `# syntax=` frontend the daemon can neither find nor pull
 * fails with the line named and what to do, not BuildKit's registry error alone.
 */
async function buildContext(
  docker: Docker,
  context: BuildContext,
  options: Docker.ImageBuildOptions,
  what: string,
  log: (line: string) => void
): Promise<void> {
  try {
    await buildKitBuild(
      docker,
      contextTar(context),
      { ...options, dockerfile: context.dockerfile },
      what,
      log
    )
  } catch (err) {
    const entry = context.entries.find(e => e.name === context.dockerfile)!
    const frontend = syntaxLine(entry.file)
    if (!frontend || !/frontend gateway/.test((err as Error).message)) throw err
    throw new Error(
      `building ${what} failed: its Dockerfile's '# syntax=${frontend}' line names a frontend image the daemon has not got and cannot pull; put the image on the daemon (docker pull or docker load) or remove the line to build with the daemon's own frontend\n${(err as Error).message}`
    )
  }
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
 * the hash of its context after its ignore file (BuildContext), so any of them changed is another
 * image.
 */
export function serviceImageTag(build: Omit<ServiceBuild, 'context'>, contextHash: string): string {
  const args = Object.entries(build.args ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  const hash = createHash('sha256').update(`${build.dockerfile}\n`)
  // Arguments and target enter the hash only when given: a plain build's tag is its context's.
  if (args.length || build.target)
    hash.update(JSON.stringify({ args, target: build.target ?? null }))
  hash.update(contextHash)
  return `gnes-latency-bench/service:${hash.digest('hex').slice(0, 16)}`
}

/**
 * Service images being looked up or built in this process, by tag. The two sides of a pair start
 * at once: when their files are the same they make one tag, and the second waits for the first's
 * build instead of building it again beside it.
 */
const preparing = new Map<string, Promise<void>>()

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
  log: (line: string) => void,
  contexts = new BuildContexts([])
): Promise<string> {
  const input = `topology service ${service.name}`
  if (!service.build) {
    if (!(await imageExists(docker, service.image))) await pull(docker, service.image, input, log)
    return service.image
  }
  const { context: dir, dockerfile, args, target } = service.build
  // Compose resolves a relative `dockerfile` from the context; it may lie outside it.
  const file = path.resolve(dir, dockerfile)
  if (!fs.existsSync(file) || !fs.statSync(file).isFile()) {
    throw bad(input, service.image, `no Dockerfile ${file} (build context ${dir})`)
  }
  const context = contexts.get(dir, file, log)
  const tag = serviceImageTag(service.build, context.hash)
  const under = preparing.get(tag)
  if (under) {
    await under
    log(`using ${tag} for ${service.image} (the other side's, from ${context.dir})`)
    return tag
  }
  const job = (async () => {
    if (await imageExists(docker, tag)) {
      log(`using ${tag} for ${service.image} (built from ${context.dir} before)`)
      return
    }
    const options = {
      t: tag,
      ...(args ? { buildargs: args } : {}),
      ...(target ? { target } : {})
    }
    await buildContext(docker, context, options, `${input} (${service.image})`, log)
  })()
  preparing.set(tag, job)
  try {
    await job
  } finally {
    preparing.delete(tag)
  }
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
  log: (line: string) => void,
  contexts = new BuildContexts([])
): Promise<Map<string, string>> {
  const bySource = new Map<string, string>()
  const images = new Map<string, string>()
  for (const s of services) {
    const b = s.build
    const source = JSON.stringify([s.image, b?.context, b?.dockerfile, b?.args, b?.target])
    if (!bySource.has(source))
      bySource.set(source, await ensureServiceImage(docker, s, log, contexts))
    images.set(s.name, bySource.get(source)!)
  }
  return images
}

/** Makes sure the image is on the daemon (pulls or builds it) and returns its reference. */
export async function ensureImage(
  docker: Docker,
  src: ImageSource,
  log: (line: string) => void,
  contexts = new BuildContexts([])
): Promise<string> {
  switch (src.kind) {
    case 'ref':
      if (!(await imageExists(docker, src.ref))) await pull(docker, src.ref, 'image', log)
      else log(`using image ${src.ref}`)
      return src.ref
    case 'dockerfile':
      return buildDockerfile(docker, src, contexts, log)
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
