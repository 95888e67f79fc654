import type { InstanceCounters, UsageSnapshot } from '../engine/usage'
import type { RunResult, RunUsage, ServiceUsage } from './schema'
import { summarize } from './summary'

/**
 * What the services spent in a measured window: the counters read at its two ends
 * (engine/usage.ts), per service, summed over its instances; then per request answered in it.
 * `cpu:<service>` and `cpu:total` are CPU seconds per request (printed as CPU-ms, like a time),
 * `mem:<service>` the peak in MiB. They are one value per run, put among its samples, so a paired
 * run compares them pair by pair like any metric.
 */

const MIB = 1024 * 1024

export const CPU_TOTAL = 'cpu:total'
export const cpuMetric = (service: string): string => `cpu:${service}`
export const memMetric = (service: string): string => `mem:${service}`
/** A metric of CPU per request, in seconds. */
export const isCpuMetric = (metric: string): boolean => metric.startsWith('cpu:')
/** A metric of peak memory, in MiB. */
export const isMemMetric = (metric: string): boolean => metric.startsWith('mem:')

type Readable = Exclude<InstanceCounters, { unreadable: string }>
const readable = (c: InstanceCounters): c is Readable => !('unreadable' in c)

/** One service over a window; the first reason any end cannot be read is its reason. */
export function serviceWindow(start: InstanceCounters[], end: InstanceCounters[]): ServiceUsage {
  const bad = [...start, ...end].find(c => !readable(c))
  if (bad && 'unreadable' in bad) return { unreadable: bad.unreadable }
  const [a, b] = [start.filter(readable), end.filter(readable)]
  if (a.length !== b.length || a.length === 0) {
    return { unreadable: 'its instances changed during the window' }
  }
  const cpuNs = b.reduce((n, c) => n + c.cpuNs, 0) - a.reduce((n, c) => n + c.cpuNs, 0)
  // Counters only grow: a fall means an instance started afresh, whose CPU time is lost.
  if (cpuNs < 0) return { unreadable: 'its CPU counter went back (an instance restarted)' }
  const memory = b[0].memory
  // A sampled usage is its larger end; a peak (since start) is the later one.
  const bytes = b.reduce(
    (n, c, i) =>
      n + (c.memory === 'sampled' ? Math.max(c.memoryBytes, a[i].memoryBytes) : c.memoryBytes),
    0
  )
  return { cpuSeconds: cpuNs / 1e9, memoryMiB: bytes / MIB, memory, instances: b.length }
}

/** Every service of the later snapshot over the window from `start` to `end`. */
export function windowUsage(
  start: UsageSnapshot,
  end: UsageSnapshot,
  requests: number,
  seconds: number
): RunUsage {
  const services = Object.fromEntries(
    Object.keys(end).map(s => [
      s,
      start[s] ? serviceWindow(start[s], end[s]) : { unreadable: 'it started during the window' }
    ])
  )
  return { requests, seconds, services }
}

/**
 * The window's metrics, one value each: `cpu:<service>` for each readable service, `cpu:total`
 * only when every service was (a sum with a part missing would look like a saving), `mem:<service>`.
 */
export function usageSamples(u: RunUsage): Record<string, number[]> {
  const out: Record<string, number[]> = {}
  const read = Object.entries(u.services).filter(
    (e): e is [string, Exclude<ServiceUsage, { unreadable: string }>] => !('unreadable' in e[1])
  )
  for (const [s, v] of read) out[cpuMetric(s)] = [v.cpuSeconds / u.requests]
  if (read.length && read.length === Object.keys(u.services).length) {
    out[CPU_TOTAL] = [read.reduce((n, [, v]) => n + v.cpuSeconds, 0) / u.requests]
  }
  for (const [s, v] of read) out[memMetric(s)] = [v.memoryMiB]
  return out
}

/** A run with its window's usage: the counters kept, their metrics among its samples. */
export function withUsage(run: RunResult, usage: RunUsage): RunResult {
  const samples = usageSamples(usage)
  return {
    ...run,
    summaries: {
      ...run.summaries,
      ...Object.fromEntries(Object.entries(samples).map(([m, xs]) => [m, summarize(xs)]))
    },
    samples: { ...run.samples, ...samples },
    usage
  }
}

/** The services whose counters a run could not read, and why; empty when all were read. */
export const unreadableServices = (u: RunUsage): { service: string; reason: string }[] =>
  Object.entries(u.services).flatMap(([service, v]) =>
    'unreadable' in v ? [{ service, reason: v.unreadable }] : []
  )

/**
 * The metrics of a profile's runs, less a `cpu:` or `mem:` one some measured run lacks (its counter
 * was not read there): a published figure needs it in every run.
 */
export const everyRunHas = (metrics: readonly string[], runs: readonly RunResult[]): string[] =>
  metrics.filter(
    m => !(isCpuMetric(m) || isMemMetric(m)) || runs.every(r => r.warmup || m in r.summaries)
  )
