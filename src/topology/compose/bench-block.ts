import { z } from 'zod'
import { MAX_RATE, MIN_RATE } from '../../config/rate'
import { slug } from '../../text/escape'
import { text } from '../fields'

/**
 * `x-latency-bench`, the one block of a Compose file that only the benchmark reads: the load
 * (as the native `load`, HTTP's fields or `grpc`, plus the container port it enters) and, as in a
 * native topology, the id, name, hops, minimal rate and thresholds. docs/topology.md documents it.
 */
export const BenchBlockSchema = z
  .object({
    id: slug('id').optional(),
    name: z.string().min(1).max(200, 'at most 200 characters').optional(),
    description: text.optional(),
    notes: text.optional(),
    load: z
      .object({
        service: z.string(),
        /** The container port the load enters; default: the service's only exposed port. */
        port: z.number().int().min(1).max(65535).optional()
      })
      .passthrough(),
    hops: z.unknown().optional(),
    minimalRate: z.number().min(MIN_RATE).max(MAX_RATE).optional(),
    /** As the native `thresholds`; checked where the compiled topology is. */
    thresholds: z.unknown().optional()
  })
  .strict()
export type BenchBlock = z.infer<typeof BenchBlockSchema>
