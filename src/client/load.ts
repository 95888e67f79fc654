import { z } from 'zod'

/** How much the client sends: the load settings of a suite, recorded in its result. */
export const LoadSchema = z.object({
  /** Documents of one burst run. */
  docs: z.number().int().positive(),
  batchSize: z.number().int().positive(),
  docBytes: z.number().int().positive(),
  /** Measured runs per profile. */
  runs: z.number().int().positive(),
  /** Requests of one paced run. */
  requests: z.number().int().positive(),
  /**
   * Requests sent before the measured runs of each profile, measured but never published; `auto`
   * sizes them per profile (`warmupRequestsOf` in pipeline/suite/drivers.ts).
   */
  warmupRequests: z.union([z.literal('auto'), z.number().int().nonnegative()])
})
export type Load = z.infer<typeof LoadSchema>
