import { z } from 'zod'
import { MAX_RATE, MIN_RATE } from '../config/rate'
import { ThresholdsSchema } from '../config/thresholds'
import { slug } from '../text/escape'
import { args, DeploySchema, instancesBounded, LIMITS, name, text } from './fields'
import { HttpTopologySchema } from './http-schema'
import { RouterModelSchema } from './model'

/**
 * A topology file (YAML): the services of one case and how their ZeroMQ sockets connect.
 * Ports are not written in the file; the engine assigns them, so suites can run side by side.
 * A CONNECT socket names the peer it connects to: an `in` socket connects to the peer's output,
 * an `out` socket to the peer's input, and that side of the peer must BIND.
 */
const SocketSchema = z.discriminatedUnion('socket', [
  z.object({ socket: z.literal('PULL_BIND') }).strict(),
  z.object({ socket: z.literal('PULL_CONNECT'), peer: name }).strict(),
  z.object({ socket: z.literal('PUSH_BIND') }).strict(),
  z.object({ socket: z.literal('PUSH_CONNECT'), peer: name }).strict()
])
export type Socket = z.infer<typeof SocketSchema>

const RouterSchema = z
  .object({
    name,
    role: z.literal('router'),
    /** GNES `--yaml_path`: a known class name (BaseRouter) or a YAML tag with parameters. */
    model: RouterModelSchema,
    replicas: z.number().int().min(1).max(16).default(1),
    in: SocketSchema,
    out: SocketSchema,
    /** Extra `gnes route` flags, appended as given. */
    args: args.default([]),
    deploy: DeploySchema.optional()
  })
  .strict()

const FrontendSchema = z
  .object({
    name,
    role: z.literal('frontend'),
    args: args.default([]),
    deploy: DeploySchema.optional()
  })
  .strict()

export type RouterService = z.infer<typeof RouterSchema>
type FrontendService = z.infer<typeof FrontendSchema>
export type Service = FrontendService | RouterService

/** Requests/s at which no request waits behind another, unless the file says otherwise. */
const DEFAULT_MINIMAL_RATE = 5

/**
 * A blocking router with `sleep_sec` s and r replicas serves r / sleep_sec requests per second;
 * half of the slowest such tier keeps every request from queueing. Other routers forward within
 * milliseconds, where DEFAULT_MINIMAL_RATE leaves them idle over 90 % of the time.
 */
function defaultMinimalRate(services: readonly Service[]): number {
  const capacities = services.flatMap(s => {
    if (s.role !== 'router') return []
    const sleep = /sleep_sec:\s*(\d+(?:\.\d+)?)/.exec(s.model)
    return sleep && Number(sleep[1]) > 0 ? [s.replicas / Number(sleep[1])] : []
  })
  return Math.min(DEFAULT_MINIMAL_RATE, ...capacities.map(c => c / 2))
}

const common = {
  /** Becomes file and chart names, so a slug by schema. */
  id: slug('id'),
  name: z.string().min(1).max(200, 'at most 200 characters'),
  description: text.default(''),
  /** Known behaviour worth telling readers (e.g. the cases 3/4 reduce quirk). */
  notes: text.default(''),
  /** Requests/s of the `minimal` load profile (default: see defaultMinimalRate). */
  minimalRate: z.number().min(MIN_RATE).max(MAX_RATE).optional(),
  /** Absolute gates in k6's syntax (`latency: ['p(99)<200ms']`), judged on every run of the case. */
  thresholds: ThresholdsSchema.default({})
}

const GnesTopologySchema = z
  .object({
    ...common,
    kind: z.literal('gnes'),
    services: z
      .array(z.discriminatedUnion('role', [FrontendSchema, RouterSchema]))
      .min(2)
      .max(LIMITS.services, `at most ${LIMITS.services} services`)
      .refine(instancesBounded, `at most ${LIMITS.instances} instances (replicas) in all`)
  })
  .strict()

export const TopologySchema = z
  .preprocess(
    // A file without `kind` is a GNES topology, as every file was before generic ones.
    v => (v && typeof v === 'object' && !('kind' in v) ? { ...v, kind: 'gnes' } : v),
    z.discriminatedUnion('kind', [GnesTopologySchema, HttpTopologySchema.extend(common).strict()])
  )
  .transform(t =>
    t.kind === 'gnes'
      ? { ...t, minimalRate: t.minimalRate ?? defaultMinimalRate(t.services) }
      : { ...t, minimalRate: t.minimalRate ?? DEFAULT_MINIMAL_RATE }
  )

export type Topology = z.infer<typeof TopologySchema>
export type GnesTopology = Extract<Topology, { kind: 'gnes' }>
export type HttpTopology = Extract<Topology, { kind: 'http' }>
