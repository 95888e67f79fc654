import * as path from 'node:path'
import type { ContainerSettings } from '../http-schema'
import { nativeHealthcheck, type NativeHealthcheck } from './healthcheck'
import type { Lookup } from './interpolate'
import { linkAliases, linkedServices } from './links'
import { serviceMounts, type PlacedMount } from './mounts'
import { Problem } from './problem'
import { containerSettings } from './settings'
import { shellWords } from './shell-words'
import { isObj, type Obj } from './obj'

/**
 * One Compose service (normalized, merged, checked) as a native `kind: http` service
 * (src/topology/http-schema.ts). Pure: env files arrive read. Throws a `Problem` naming the key.
 */
export interface NativeService {
  name: string
  image: string
  build?: { context: string; dockerfile: string; args?: Record<string, string>; target?: string }
  command?: string[]
  entrypoint?: string[]
  environment: Record<string, string>
  port?: number
  ready?: { healthcheck: NativeHealthcheck }
  replicas: number
  resources: { cpus?: number; memory?: string | number }
  dependsOn: (string | { service: string; condition: 'healthy' | 'completed' })[]
  deploy?: { placement: { constraints: string[] }; endpoint_mode?: string }
  aliases?: string[]
  /** Each with its entry; translate.ts takes the entries off, the native format has none. */
  mounts: PlacedMount[]
  container?: ContainerSettings
}

export interface ServiceContext {
  /** The first file's directory: every relative path of every file is relative to it. */
  dir: string
  /** The Compose project name, which names an image built without `image`. */
  project: string
  lookup: Lookup
  /** The variables of each env file that exists, by absolute path. */
  envFiles: ReadonlyMap<string, Record<string, string>>
  /** The services that run. */
  names: readonly string[]
  /** The port the native service declares (the load's, or its only container port). */
  port: number | null
  /** The whole merged model: the top-level volumes, secrets and configs. */
  data: Obj
}

/**
 * Native commands and environment expand `${...}` placeholders: a Compose value is literal, but
 * for the trace receiver's endpoints, `${otlp}` and `${otlp-grpc}` (written `$${otlp}` in Compose).
 */
const literal = (s: string): string => s.replace(/\$(?!\{otlp(?:-grpc)?\})/g, '$$$$')

/**
 * `command` or `entrypoint`: a string split as Compose splits it, or the list as given. An empty
 * command is the image's own; an empty entrypoint would clear the image's, which the native
 * topology cannot say.
 */
function argv(v: unknown, key: 'command' | 'entrypoint'): string[] | undefined {
  if (v === undefined || v === null) return undefined
  let words: string[]
  try {
    words = Array.isArray(v) ? v.map(String) : shellWords(String(v))
  } catch (err) {
    throw new Problem(key, (err as Error).message)
  }
  if (words.length === 0 && key === 'entrypoint') {
    throw new Problem(key, "an empty entrypoint (clearing the image's) is not supported")
  }
  return words.length ? words.map(literal) : undefined
}

/** `KEY: null` (or `- KEY`) takes KEY from the environment, and is left out where it is unset. */
const resolved = (vars: Obj, lookup: Lookup): Record<string, string> =>
  Object.fromEntries(
    Object.entries(vars).flatMap(([k, v]) => {
      const value = v === null ? lookup(k) : String(v)
      return value === undefined ? [] : [[k, value]]
    })
  )

/** env_file variables in order, then `environment` over them. */
function environment(s: Obj, ctx: ServiceContext): Record<string, string> {
  const fromFiles = ((s.env_file as Obj[] | undefined) ?? []).map(
    f => ctx.envFiles.get(path.resolve(ctx.dir, String(f.path))) ?? {}
  )
  const all = Object.assign(
    {},
    ...fromFiles,
    resolved(isObj(s.environment) ? s.environment : {}, ctx.lookup)
  )
  return Object.fromEntries(Object.entries(all).map(([k, v]) => [k, literal(String(v))]))
}

function build(s: Obj, ctx: ServiceContext): NativeService['build'] {
  if (!isObj(s.build)) return undefined
  const b = s.build
  const args = isObj(b.args) ? resolved(b.args, ctx.lookup) : {}
  return {
    context: path.resolve(ctx.dir, String(b.context ?? '.')),
    dockerfile: String(b.dockerfile ?? 'Dockerfile'),
    ...(Object.keys(args).length ? { args } : {}),
    ...(b.target !== undefined ? { target: String(b.target) } : {})
  }
}

/** The image to run: `image`, or the name Compose gives an image it builds. */
function image(name: string, s: Obj, ctx: ServiceContext): string {
  if (typeof s.image === 'string') return s.image
  if (!s.build) throw new Problem('image', 'neither image nor build: nothing to run')
  return `${ctx.project}-${name}`.toLowerCase().replace(/[^a-z0-9._-]/g, '')
}

function replicas(s: Obj): number {
  const deploy = isObj(s.deploy) ? s.deploy : {}
  const [fromDeploy, fromScale] = [deploy.replicas, s.scale].map(v =>
    v === undefined ? undefined : Number(v)
  )
  if (fromDeploy !== undefined && fromScale !== undefined && fromDeploy !== fromScale) {
    throw new Problem('scale', `${fromScale} and deploy.replicas ${fromDeploy} disagree`)
  }
  const n = fromDeploy ?? fromScale ?? 1
  if (!Number.isInteger(n) || n < 1) {
    throw new Problem(fromDeploy !== undefined ? 'deploy.replicas' : 'scale', 'at least 1 replica')
  }
  return n
}

/** `deploy.resources.limits`, or the service-level `cpus` and `mem_limit`. */
function resources(s: Obj): NativeService['resources'] {
  const deploy = isObj(s.deploy) ? s.deploy : {}
  const limits =
    isObj(deploy.resources) && isObj(deploy.resources.limits) ? deploy.resources.limits : {}
  const cpus = limits.cpus ?? s.cpus
  const memory = limits.memory ?? s.mem_limit
  if (cpus !== undefined && !(Number(cpus) > 0)) {
    throw new Problem('deploy.resources.limits.cpus', `'${String(cpus)}' is not a number of CPUs`)
  }
  return {
    ...(cpus !== undefined ? { cpus: Number(cpus) } : {}),
    ...(memory !== undefined ? { memory: memory as string | number } : {})
  }
}

const CONDITIONS: Record<string, 'started' | 'healthy' | 'completed'> = {
  service_started: 'started',
  service_healthy: 'healthy',
  service_completed_successfully: 'completed'
}

/**
 * `depends_on`: a dependency that is not required and does not run is left out, as in Compose;
 * a linked service is a started dependency where `depends_on` does not name it.
 */
function dependsOn(s: Obj, ctx: ServiceContext): NativeService['dependsOn'] {
  const named = isObj(s.depends_on) ? s.depends_on : {}
  const linked = linkedServices(s, ctx.names).filter(l => !(l in named))
  return [...new Set(linked), ...declaredDependencies(named, ctx)]
}

function declaredDependencies(named: Obj, ctx: ServiceContext): NativeService['dependsOn'] {
  return Object.entries(named).flatMap(([dep, spec]) => {
    const { condition, required } = spec as { condition: string; required: boolean }
    if (!ctx.names.includes(dep)) {
      if (required === false) return []
      throw new Problem(`depends_on.${dep}`, `no service named '${dep}' runs`)
    }
    const c = CONDITIONS[condition]
    return [c === 'started' ? dep : { service: dep, condition: c }]
  })
}

function deploy(s: Obj): NativeService['deploy'] {
  const d = isObj(s.deploy) ? s.deploy : {}
  const placement = isObj(d.placement) ? d.placement : {}
  const constraints = ((placement.constraints as unknown[] | undefined) ?? []).map(String)
  if (!constraints.length && d.endpoint_mode === undefined) return undefined
  return {
    placement: { constraints },
    ...(d.endpoint_mode !== undefined ? { endpoint_mode: String(d.endpoint_mode) } : {})
  }
}

/** Every network's aliases and those links give it: all services share the topology's one network. */
function aliases(name: string, s: Obj, ctx: ServiceContext): string[] {
  const nets = Object.values(isObj(s.networks) ? s.networks : {})
  const own = nets.flatMap(n => ((isObj(n) && (n.aliases as unknown[])) || []).map(String))
  const services = isObj(ctx.data.services) ? ctx.data.services : {}
  return [...new Set([...own, ...linkAliases(name, services, ctx.names)])]
}

export function nativeService(name: string, s: Obj, ctx: ServiceContext): NativeService {
  const command = argv(s.command, 'command')
  const entrypoint = argv(s.entrypoint, 'entrypoint')
  const healthcheck = (() => {
    try {
      return nativeHealthcheck(isObj(s.healthcheck) ? s.healthcheck : undefined)
    } catch (err) {
      if (err instanceof Problem) throw new Problem(`healthcheck.${err.key}`, err.message)
      throw err
    }
  })()
  const built = build(s, ctx)
  const deployed = deploy(s)
  const extraNames = aliases(name, s, ctx)
  const settings = containerSettings(s)
  return {
    name,
    image: image(name, s, ctx),
    ...(built ? { build: built } : {}),
    ...(command ? { command } : {}),
    ...(entrypoint ? { entrypoint } : {}),
    environment: environment(s, ctx),
    ...(ctx.port !== null ? { port: ctx.port } : {}),
    ...(healthcheck ? { ready: { healthcheck } } : {}),
    replicas: replicas(s),
    resources: resources(s),
    dependsOn: dependsOn(s, ctx),
    ...(deployed ? { deploy: deployed } : {}),
    ...(extraNames.length ? { aliases: extraNames } : {}),
    mounts: serviceMounts(s, ctx.data, ctx),
    ...(settings ? { container: settings } : {})
  }
}
