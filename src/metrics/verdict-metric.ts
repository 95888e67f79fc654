import type { Profile } from '../profile/definition'
import { traitsOf } from '../profile/traits'

/**
 * The metric a case is judged by: a pull request's verdict, a push's alert and a bisect all read
 * it. At minimal or paced load a GNES case is judged by `path`, the time inside GNES from the
 * frontend's receive to the last router's send: a router's change lands there whole, and it
 * leaves out the client's gRPC transfer into the frontend (`c->f:send`, most of `latency` and most
 * of its noise). Elsewhere the case's headline: `roundtrip` for a burst, `latency` for generic
 * services. The inputs may choose another (`verdict-metric: cpu:total`): the case is then judged
 * by it even in runs that lack it (a counter not read), which then have no verdict.
 */
export function verdictMetric(c: {
  headline: string
  metrics: readonly string[]
  profile: Profile
  /** The one the inputs chose (`verdict-metric`, e.g. `cpu:total`); absent: as above. */
  verdictMetric?: string
}): string {
  if (c.verdictMetric) return c.verdictMetric
  return traitsOf(c.profile).compared === 'by-path' && c.metrics.includes('path')
    ? 'path'
    : c.headline
}
