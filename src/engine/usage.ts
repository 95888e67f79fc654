import { z } from 'zod'

/**
 * What one instance's counters say at one instant: its CPU time so far and its peak memory, as
 * its platform reads them (docker/usage.ts, local/usage.ts). Read at both ends of a measured
 * window; metrics/usage.ts takes the difference.
 */

/** How a platform's memory figure was taken, for the reader of `mem:<service>`. */
export const MEMORY_KINDS = [
  /** The kernel's high-water mark since the container started (cgroup v1's max_usage). */
  'peak-since-start',
  /** The process tree's resident high-water marks since each process started (VmHWM). */
  'process-peak',
  /** No peak is kept (cgroup v2 through the API): the usage sampled at the window's ends. */
  'sampled'
] as const
export type MemoryKind = (typeof MEMORY_KINDS)[number]

export const InstanceCountersSchema = z.union([
  z.object({
    /** CPU time, user + system, nanoseconds since the instance started. */
    cpuNs: z.number().nonnegative(),
    /** Bytes; what they mean is `memory`'s. */
    memoryBytes: z.number().nonnegative(),
    memory: z.enum(MEMORY_KINDS)
  }),
  /** Why this instance's counters cannot be read here (never read as zero). */
  z.object({ unreadable: z.string().min(1) })
])
export type InstanceCounters = z.infer<typeof InstanceCountersSchema>

/** Every service's instances at one instant, by service name, in replica order. */
export type UsageSnapshot = Record<string, InstanceCounters[]>

/** A reader that fails says so in the counters rather than failing the run. */
export async function readCounters(
  read: () => Promise<InstanceCounters>
): Promise<InstanceCounters> {
  try {
    return await read()
  } catch (err) {
    return { unreadable: `its counters could not be read: ${(err as Error).message}` }
  }
}
