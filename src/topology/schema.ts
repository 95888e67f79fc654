import { z } from 'zod'

/**
 * A topology file (YAML): the services of one case and how their ZeroMQ sockets connect.
 * Ports are not written in the file; the engine assigns them, so suites can run side by side.
 * A CONNECT socket names the peer it connects to: an `in` socket connects to the peer's output,
 * an `out` socket to the peer's input, and that side of the peer must BIND.
 */
const name = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_-]*$/, 'a name of letters, digits, _ or -, starting with a letter')

export const SocketSchema = z.discriminatedUnion('socket', [
  z.object({ socket: z.literal('PULL_BIND') }).strict(),
  z.object({ socket: z.literal('PULL_CONNECT'), peer: name }).strict(),
  z.object({ socket: z.literal('PUSH_BIND') }).strict(),
  z.object({ socket: z.literal('PUSH_CONNECT'), peer: name }).strict()
])
export type Socket = z.infer<typeof SocketSchema>

/**
 * Where and how a service runs on the swarm engine, spelled as a compose file's `deploy` key:
 * `placement.constraints` (e.g. `node.hostname==worker-1`, `node.labels.zone==b`) and
 * `endpoint_mode` (vip needs IPVS; the engine picks dnsrr where it is missing). Other engines
 * ignore it.
 */
export const DeploySchema = z
  .object({
    placement: z
      .object({ constraints: z.array(z.string().min(1)).default([]) })
      .strict()
      .default({}),
    endpoint_mode: z.enum(['vip', 'dnsrr']).optional()
  })
  .strict()
export type Deploy = z.infer<typeof DeploySchema>

export const RouterSchema = z
  .object({
    name,
    role: z.literal('router'),
    /** GNES `--yaml_path`: a class name (BaseRouter) or a YAML tag with parameters. */
    model: z.string().min(1),
    replicas: z.number().int().min(1).max(16).default(1),
    in: SocketSchema,
    out: SocketSchema,
    /** Extra `gnes route` flags, appended as given. */
    args: z.array(z.string()).default([]),
    deploy: DeploySchema.optional()
  })
  .strict()

export const FrontendSchema = z
  .object({
    name,
    role: z.literal('frontend'),
    args: z.array(z.string()).default([]),
    deploy: DeploySchema.optional()
  })
  .strict()

export const TopologySchema = z
  .object({
    id: z.string().regex(/^[\w-]+$/, 'an id of letters, digits, _ or -'),
    name: z.string().min(1),
    description: z.string().default(''),
    /** Known behaviour worth telling readers (e.g. the cases 3/4 reduce quirk). */
    notes: z.string().default(''),
    services: z.array(z.discriminatedUnion('role', [FrontendSchema, RouterSchema])).min(2)
  })
  .strict()

export type Topology = z.infer<typeof TopologySchema>
export type RouterService = z.infer<typeof RouterSchema>
export type FrontendService = z.infer<typeof FrontendSchema>
export type Service = Topology['services'][number]
