import * as fs from 'node:fs'
import * as path from 'node:path'
import { readCounters, type InstanceCounters } from '../usage'

/**
 * A local service's counters from /proc, over its process tree (the process and every descendant
 * alive at the instant): CPU as the sum of each thread's `schedstat` first field (nanoseconds on
 * the CPU, finer than `stat`'s 10 ms ticks), memory as the sum of each process's `VmHWM` (its
 * resident high-water mark since it started). A thread or process that ended takes its CPU time
 * with it: a service that forks a process per request is under-counted.
 */

const read = (file: string): string | null => {
  try {
    return fs.readFileSync(file, 'utf8')
  } catch {
    return null
  }
}

const list = (dir: string): string[] => {
  try {
    return fs.readdirSync(dir)
  } catch {
    return []
  }
}

/** The pid and its descendants alive now, from each thread's `children` list. */
export function processTree(pid: number, proc = '/proc'): number[] {
  const seen = new Set<number>()
  const queue = [pid]
  while (queue.length) {
    const p = queue.shift()!
    if (seen.has(p) || !fs.existsSync(path.join(proc, String(p)))) continue
    seen.add(p)
    for (const tid of list(path.join(proc, String(p), 'task'))) {
      const children = read(path.join(proc, String(p), 'task', tid, 'children')) ?? ''
      queue.push(...children.split(/\s+/).filter(Boolean).map(Number))
    }
  }
  return [...seen]
}

/** Nanoseconds on the CPU of every live thread of `pid`. */
function processCpuNs(pid: number, proc: string): number {
  let ns = 0
  for (const tid of list(path.join(proc, String(pid), 'task'))) {
    const first = (read(path.join(proc, String(pid), 'task', tid, 'schedstat')) ?? '').split(' ')[0]
    ns += Number(first) || 0
  }
  return ns
}

/** `VmHWM` of `pid` in bytes; 0 for a process without one (a zombie). */
function processPeakBytes(pid: number, proc: string): number {
  const status = read(path.join(proc, String(pid), 'status')) ?? ''
  const kb = /^VmHWM:\s+(\d+)\s+kB$/m.exec(status)?.[1]
  return kb ? Number(kb) * 1024 : 0
}

/** The counters of the process tree under `pid`; a process that is gone says so. */
export const processTreeCounters = (
  pid: number | undefined,
  proc = '/proc'
): Promise<InstanceCounters> =>
  readCounters(async () => {
    const tree = pid === undefined ? [] : processTree(pid, proc)
    if (!tree.length) return { unreadable: 'its process is not running' }
    return {
      cpuNs: tree.reduce((n, p) => n + processCpuNs(p, proc), 0),
      memoryBytes: tree.reduce((n, p) => n + processPeakBytes(p, proc), 0),
      memory: 'process-peak'
    }
  })
