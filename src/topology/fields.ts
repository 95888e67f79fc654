import { z } from 'zod'

/** A service name: it becomes container names, DNS aliases and log file names. */
export const name = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_-]*$/, 'a name of letters, digits, _ or -, starting with a letter')

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
