import { z } from 'zod'
import { memoryBytes, MIN_MEMORY } from '../config/memory-size'
import { args, DeploySchema, instancesBounded, LIMITS, name, value } from './fields'
import { GrpcLoadSchema, type GrpcLoad } from './grpc-schema'

/**
 * A generic topology (`kind: http`): any services, each a container image (or a command on the
 * local engine), driven over HTTP. docs/topology.md documents every field.
 */

/** Docker's memory spelling (`64M`, `1g`, bytes without a unit) in bytes. */
const memory = z
  .union([z.number().int().positive(), z.string()])
  .transform((v, ctx) => {
    const bytes = memoryBytes(String(v))
    if (Number.isNaN(bytes)) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'a size such as 64M, 512k or 1G' })
      return z.NEVER
    }
    return bytes
  })
  .refine(b => b >= MIN_MEMORY, 'at least 6M (Docker refuses less)')

/**
 * Docker's health check, in Docker's form: `['CMD', ...argv]` or `['CMD-SHELL', 'cmd']`.
 * Times in seconds, as a Compose file's `healthcheck` gives them once translated; checks come
 * every `startIntervalSec` within `startPeriodSec` (Docker's default 5 s), then every
 * `intervalSec`.
 */
const HealthcheckSchema = z
  .object({
    test: args
      .min(2)
      .refine(
        t => t[0] === 'CMD' || (t[0] === 'CMD-SHELL' && t.length === 2),
        "['CMD', program, ...args] or ['CMD-SHELL', 'a shell command']"
      ),
    intervalSec: z.number().positive().max(3600),
    timeoutSec: z.number().positive().max(3600),
    retries: z.number().int().min(1).max(100),
    startPeriodSec: z.number().min(0).max(3600),
    startIntervalSec: z.number().positive().max(3600).default(5)
  })
  .strict()
export type Healthcheck = z.infer<typeof HealthcheckSchema>

const ReadySchema = z.union([
  /** A line of the service's output that means it serves (a regular expression). */
  z.object({ log: z.string().min(1).max(200) }).strict(),
  /** A path answered with a 2xx status once the service serves. */
  z.object({ http: z.string().regex(/^\/[\x21-\x7e]*$/, 'a path starting with /') }).strict(),
  /** The health check passes (containers only). */
  z.object({ healthcheck: HealthcheckSchema }).strict()
])

/**
 * A service started first: a plain name waits until it started; `healthy` until it is ready;
 * `completed` until it ran to its end with exit code 0 (a one-shot job, e.g. a migration).
 */
const DependencySchema = z.union([
  name,
  z.object({ service: name, condition: z.enum(['started', 'healthy', 'completed']) }).strict()
])
export type DependencyEntry = z.infer<typeof DependencySchema>

/** An extra DNS name on the topology's network. */
const alias = z
  .string()
  .regex(/^[A-Za-z0-9]([A-Za-z0-9_.-]{0,62})$/, 'a DNS name of letters, digits, _, . or -')

/** An absolute path inside a container. */
const target = z.string().regex(/^\/[^\0]{0,1023}$/, 'an absolute path in the container')

/**
 * A mount: a file or directory of the checkout (relative to the topology file; read-only, or
 * copied into a fresh volume when `readOnly` is false), a volume created empty for each
 * deployment (named: shared by the deployment's services; unnamed: each container's own), or a
 * tmpfs, or a file written from text. A Compose secret or config (`as`) arrives as a read-only
 * file; Swarm hands it over as a secret or config of its own, so the service need not run on the
 * node holding the checkout.
 */
const handedAs = z.enum(['secret', 'config'])

/** The most a Swarm secret or config holds (swarmkit's limit), and so the most text mounted. */
export const MAX_HANDED_BYTES = 500 * 1024

const MountSchema = z.discriminatedUnion('type', [
  z
    .object({
      type: z.literal('bind'),
      source: z.string().min(1).max(1024),
      target,
      readOnly: z.boolean().default(true),
      as: handedAs.optional()
    })
    .strict(),
  z
    .object({
      type: z.literal('text'),
      content: z
        .string()
        .refine(
          t => Buffer.byteLength(t) <= MAX_HANDED_BYTES,
          `at most ${MAX_HANDED_BYTES} bytes, as a Swarm secret or config holds`
        ),
      target,
      as: handedAs
    })
    .strict(),
  z
    .object({
      type: z.literal('volume'),
      source: z
        .string()
        .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/, 'a volume name')
        .optional(),
      target
    })
    .strict(),
  z
    .object({ type: z.literal('tmpfs'), target, sizeBytes: z.number().int().positive().optional() })
    .strict()
])
export type Mount = z.infer<typeof MountSchema>

/** Container settings that change nothing measured but what the service needs to run. */
const ContainerSettingsSchema = z
  .object({
    user: z.string().min(1).max(200).optional(),
    workingDir: target.optional(),
    stopSignal: z
      .string()
      .regex(/^(SIG)?[A-Z0-9]{2,10}$|^\d{1,2}$/, 'a signal')
      .optional(),
    /** `host:address` entries for /etc/hosts. */
    extraHosts: z
      .array(z.string().regex(/^[A-Za-z0-9_.-]{1,253}:[0-9A-Fa-f.:]{2,45}$/, 'host:address'))
      .max(LIMITS.items)
      .optional(),
    shmBytes: z.number().int().positive().optional(),
    ulimits: z
      .record(
        z.string().regex(/^[a-z]{2,12}$/, 'a limit name'),
        z.object({ soft: z.number().int(), hard: z.number().int() }).strict()
      )
      .optional(),
    /** The most processes it may hold (Docker's PidsLimit: 0 or -1 unlimited; the kernel's most is 2^22). */
    pidsLimit: z
      .number()
      .int()
      .min(-1)
      .max(2 ** 22)
      .optional(),
    /** Linux capabilities taken from its default set (`NET_RAW`, `CAP_MKNOD`, `ALL`); none is added. */
    capDrop: z
      .array(z.string().regex(/^[A-Za-z_]{2,40}$/, 'a capability name'))
      .max(LIMITS.items)
      .optional(),
    /** Its processes gain no privileges through setuid binaries or file capabilities (no_new_privs). */
    noNewPrivileges: z.boolean().optional(),
    /** The OCI runtime the daemon runs it with (`runc`, a containerd shim such as `io.containerd.wasmedge.v1`). */
    runtime: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/, 'a runtime name')
      .optional(),
    /** The platform its image is for (`linux/amd64`, `linux/arm/v7`), checked against the daemon's. */
    platform: z
      .string()
      .regex(/^[a-z0-9]+\/[a-z0-9_]+(\/[a-z0-9]+)?$/, 'os/architecture[/variant]')
      .optional()
  })
  .strict()
export type ContainerSettings = z.infer<typeof ContainerSettingsSchema>

const ContainerServiceSchema = z
  .object({
    name,
    /** The image to run on Docker and Swarm; built from `build` when given. */
    image: z.string().regex(/^[a-z0-9][a-z0-9._/:@-]{0,200}$/, 'a Docker image reference'),
    /** Build context and Dockerfile, relative to the topology file. */
    build: z
      .object({
        context: z.string().min(1),
        dockerfile: z.string().min(1).default('Dockerfile'),
        /** Docker build arguments (`ARG`). */
        args: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), value).optional(),
        /** The stage of a multi-stage Dockerfile to build. */
        target: z
          .string()
          .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/, 'a build stage name')
          .optional()
      })
      .strict()
      .optional(),
    /**
     * The argv: on the local engine the process to start (in `build.context`, else beside the
     * file); in a container it replaces the image's CMD. Optional in a container.
     */
    command: args.min(1).optional(),
    /** The container's entrypoint, replacing the image's (containers only). */
    entrypoint: args.min(1).optional(),
    environment: z
      .record(
        // Docker takes any name without `=`; Compose files use dotted ones (discovery.type).
        z.string().regex(/^[A-Za-z_][A-Za-z0-9_.-]*$/, 'a variable name'),
        z.string().max(LIMITS.value, `at most ${LIMITS.value} characters`)
      )
      .default({}),
    /**
     * The TCP port it serves on (in its container; the local engine assigns its own). Only the
     * load's service needs one: a service without serves no peer by address.
     */
    port: z.number().int().min(1).max(65535).optional(),
    /** Default: the port accepts a TCP connection; without a port, the instance runs. */
    ready: ReadySchema.optional(),
    replicas: z.number().int().min(1).max(16).default(1),
    resources: z
      .object({ cpus: z.number().positive().max(64).optional(), memory: memory.optional() })
      .strict()
      .default({}),
    dependsOn: z.array(DependencySchema).max(LIMITS.services).default([]),
    /** DNS names besides the service's own name on the topology's network. */
    aliases: z.array(alias).max(LIMITS.items).optional(),
    deploy: DeploySchema.optional(),
    /** Files, volumes and tmpfs mounted into its containers (Docker and Swarm). */
    mounts: z.array(MountSchema).max(LIMITS.items).default([]),
    container: ContainerSettingsSchema.optional()
  })
  .strict()
export type ContainerService = z.infer<typeof ContainerServiceSchema>

const header = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/

const HttpLoadSchema = z
  .object({
    /** The service the load enters; requests go to its first replica. */
    service: name,
    method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD']).default('GET'),
    path: z
      .string()
      .regex(/^\/[\x21-\x7e]*$/, 'a path starting with /')
      .default('/'),
    body: z.string().max(1_000_000).nullable().default(null),
    headers: z.record(z.string().regex(header, 'an HTTP header name'), value).default({}),
    /** Statuses that count as success. */
    status: z.array(z.number().int().min(100).max(599)).min(1).default([200]),
    timeoutSec: z.number().positive().max(300).default(10)
  })
  .strict()
export type HttpLoad = z.infer<typeof HttpLoadSchema>

/** A load that sends gRPC calls rather than HTTP requests. */
export const isGrpcLoad = (load: HttpLoad | GrpcLoad): load is GrpcLoad => 'grpc' in load

/**
 * The load: HTTP's fields, or `service` and `grpc`. The `grpc` key says which, so an error is
 * reported against the kind the file means (a plain union would only say neither fits).
 */
const LoadSchema = z.unknown().transform((v, ctx): HttpLoad | GrpcLoad => {
  const grpc = typeof v === 'object' && v !== null && 'grpc' in v
  const parsed = (grpc ? GrpcLoadSchema : HttpLoadSchema).safeParse(v)
  if (parsed.success) return parsed.data
  parsed.error.issues.forEach(issue => ctx.addIssue(issue))
  return z.NEVER
})

/**
 * Per-hop times from OpenTelemetry spans the services export to the benchmark's receiver: `sample`
 * is the share of requests traced, `flushSec` how long after a run's last answer to wait for spans.
 */
const OtlpSchema = z
  .object({
    sample: z.number().gt(0).max(1).default(1),
    flushSec: z.number().positive().max(60).default(2)
  })
  .strict()
export type OtlpHops = z.infer<typeof OtlpSchema>

/**
 * Where per-hop times come from: the system's own figures at a JSON field path or in a
 * Server-Timing-style header, or the spans of its traces (`otlp`).
 */
const HopsSchema = z.union([
  z
    .object({
      json: z.string().regex(/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/, 'a dotted field path')
    })
    .strict(),
  z.object({ header: z.string().regex(header, 'an HTTP header name') }).strict(),
  z.object({ otlp: OtlpSchema }).strict()
])
export type HopSource = z.infer<typeof HopsSchema>

/** Whether the hop figures come from traces (`hops: { otlp }`), which the services export. */
export const fromTraces = (hops: HopSource | null): hops is { otlp: OtlpHops } =>
  hops !== null && 'otlp' in hops

export const HttpTopologySchema = z.object({
  kind: z.literal('http'),
  services: z
    .array(ContainerServiceSchema)
    .min(1)
    .max(LIMITS.services, `at most ${LIMITS.services} services`)
    .refine(instancesBounded, `at most ${LIMITS.instances} instances (replicas) in all`),
  load: LoadSchema,
  hops: HopsSchema.nullable().default(null)
})
