const UNITS: Record<string, number> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }

/** Docker refuses less than 6 MiB per container. */
export const MIN_MEMORY = 6 * 1024 ** 2

/**
 * A memory size as `docker run --memory` spells it (512m, 1g, 1.5g, 64M, bytes without a unit), in
 * bytes; NaN when it is not one. Shared by the `memory` input and a topology's `resources.memory`.
 */
export function memoryBytes(value: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*([kmg]?)(?:i?b)?$/i.exec(value.trim())
  return m ? Math.floor(Number(m[1]) * UNITS[m[2].toLowerCase()]) : NaN
}
