import { z } from 'zod'

/**
 * Bounds of a topology file (docs/topology.md): a file is read whole and every service is
 * started at once, so neither may grow without limit.
 */
export const LIMITS = {
  /** Bytes of a topology file. */
  fileBytes: 256 * 1024,
  /** Services of one topology, and their instances (replicas) together. */
  services: 32,
  instances: 64,
  /** Characters of a free text (description, notes) and of one argument or value. */
  text: 10_000,
  value: 4_096,
  /** Arguments of one command line, constraints of one service. */
  items: 64
} as const

/** A service name: it becomes container names, DNS aliases and log file names. */
export const name = z
  .string()
  .max(63, 'a name of at most 63 characters')
  .regex(/^[A-Za-z][A-Za-z0-9_-]*$/, 'a name of letters, digits, _ or -, starting with a letter')

/** One argument or value: bounded, and (reaching argv or a header) without control characters. */
export const value = z
  .string()
  .max(LIMITS.value, `at most ${LIMITS.value} characters`)
  // eslint-disable-next-line no-control-regex
  .regex(/^[^\x00-\x1f\x7f]*$/, 'no control characters (no CR, LF, NUL or tab)')

/** A list of arguments. */
export const args = z.array(value).max(LIMITS.items, `at most ${LIMITS.items} items`)

/** Free text shown to readers (escaped where it lands). */
export const text = z.string().max(LIMITS.text, `at most ${LIMITS.text} characters`)

/** Every service's replicas together: each is a process or a container started at once. */
export const instancesBounded = (services: readonly object[]): boolean =>
  services.reduce<number>(
    (n, s) => n + ('replicas' in s && typeof s.replicas === 'number' ? s.replicas : 1),
    0
  ) <= LIMITS.instances

/**
 * Where and how a service runs on the swarm engine, spelled as a compose file's `deploy` key:
 * `placement.constraints` (e.g. `node.hostname==worker-1`, `node.labels.zone==b`) and
 * `endpoint_mode` (vip needs IPVS; the engine picks dnsrr where it is missing). Other engines
 * ignore it.
 */
export const DeploySchema = z
  .object({
    placement: z
      .object({
        constraints: z
          .array(value.pipe(z.string().min(1)))
          .max(LIMITS.items)
          .default([])
      })
      .strict()
      .default({}),
    endpoint_mode: z.enum(['vip', 'dnsrr']).optional()
  })
  .strict()
