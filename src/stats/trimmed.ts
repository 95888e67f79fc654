import { mean } from './sample'

/** Robust statistics of a sample: a few wild values cut off or pulled in. */

/** The mean of what is left after cutting floor(trim × n) values off each end of the sorted sample. */
export function trimmedMean(xs: readonly number[], trim: number): number {
  const s = [...xs].sort((a, b) => a - b)
  const g = Math.floor(trim * s.length)
  return mean(s.slice(g, s.length - g))
}

/** The sample with its g smallest and g largest values pulled in to the nearest kept value. */
export function winsorize(xs: readonly number[], g: number): number[] {
  const s = [...xs].sort((a, b) => a - b)
  return s.map((_, i) => s[Math.min(Math.max(i, g), s.length - 1 - g)])
}
