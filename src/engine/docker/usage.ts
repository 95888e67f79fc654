import type Docker from 'dockerode'
import { z } from 'zod'
import { statusOf } from './client'
import { readCounters, type InstanceCounters } from '../usage'

/**
 * A container's counters from the Engine API's stats, one shot (no second sample for a rate):
 * CPU is `cpu_stats.cpu_usage.total_usage` (nanoseconds, user + system, of the container's cgroup);
 * memory is cgroup v1's `max_usage` (the peak since the container started) where the daemon gives
 * it, else (cgroup v2, which keeps no peak in the API) `usage` at this instant.
 */
const StatsSchema = z.object({
  cpu_stats: z.object({ cpu_usage: z.object({ total_usage: z.number().nonnegative() }) }),
  memory_stats: z
    .object({ usage: z.number().nonnegative(), max_usage: z.number().nonnegative().optional() })
    .partial()
})

/** Counters from one stats answer; a stopped container's answer is empty and says so. */
export function countersFromStats(stats: unknown): InstanceCounters {
  const parsed = StatsSchema.safeParse(stats)
  if (!parsed.success) return { unreadable: 'the daemon gave no CPU counter for its container' }
  const { cpu_stats, memory_stats } = parsed.data
  const { usage, max_usage } = memory_stats
  if (usage === undefined) return { unreadable: 'its container is not running' }
  const cpuNs = cpu_stats.cpu_usage.total_usage
  return max_usage !== undefined && max_usage > 0
    ? { cpuNs, memoryBytes: max_usage, memory: 'peak-since-start' }
    : { cpuNs, memoryBytes: usage, memory: 'sampled' }
}

/**
 * The counters of the container `id` on this daemon. A Swarm task on another node has no container
 * here: it says so (the daemon answers 404), never a zero.
 */
export const containerCounters = (docker: Docker, id: string | null): Promise<InstanceCounters> =>
  readCounters(async () => {
    if (!id) return { unreadable: 'it has no container yet' }
    try {
      return countersFromStats(
        await docker.getContainer(id).stats({ stream: false, 'one-shot': true })
      )
    } catch (err) {
      if (statusOf(err) === 404) {
        return {
          unreadable: 'its container runs on another node, whose daemon this run cannot read'
        }
      }
      throw err
    }
  })
