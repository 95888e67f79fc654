import { InputError } from '../../config/input-error'
import { memoryBytes, MIN_MEMORY } from '../../config/memory-size'

/** Per-service resource limits, as the Engine API's HostConfig takes them. */
interface Limits {
  NanoCpus?: number
  Memory?: number
  MemorySwap?: number
}

/** `memory` as docker run's `--memory` spells it (512m, 1g, 1.5g, bytes); null when unset. */
export function parseMemory(value: string | null | undefined): number | null {
  if (!value) return null
  const bytes = memoryBytes(value)
  if (!(bytes >= MIN_MEMORY)) {
    throw new InputError(
      `Invalid input:\n  input 'memory' = '${value}': memory must be a size such as 512m or 1g, at least 6m`
    )
  }
  return bytes
}

/** `cpus` as docker run's `--cpus` spells it (0.5, 1, 2); null when unset. */
export function parseCpus(value: string | null | undefined, hostCpus?: number): number | null {
  if (!value) return null
  const cpus = /^\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : NaN
  const max = hostCpus ?? Infinity
  if (!(cpus >= 0.01 && cpus <= max)) {
    const range = hostCpus
      ? ` between 0.01 and ${hostCpus} (the daemon's CPUs)`
      : ' of at least 0.01'
    throw new InputError(
      `Invalid input:\n  input 'cpus' = '${value}': cpus must be a number${range}`
    )
  }
  return cpus
}

/** HostConfig fields for the limits; swap is capped at the memory limit to mimic a small machine. */
export function hostLimits(cpus: number | null, memory: number | null): Limits {
  return {
    ...(cpus ? { NanoCpus: Math.round(cpus * 1e9) } : {}),
    ...(memory ? { Memory: memory, MemorySwap: memory } : {})
  }
}
