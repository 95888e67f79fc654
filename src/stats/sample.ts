/** The one mean, median, variance and quantile of the project, over plain number arrays. */

/** Linear interpolation between closest ranks (the common "type 7" quantile). */
export function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) throw new RangeError('quantile of an empty sample')
  const pos = (sorted.length - 1) * q
  const lo = Math.floor(pos)
  const hi = Math.ceil(pos)
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo)
}

export function mean(xs: readonly number[]): number {
  return xs.reduce((a, b) => a + b, 0) / xs.length
}

export function median(xs: readonly number[]): number {
  return quantile(
    [...xs].sort((a, b) => a - b),
    0.5
  )
}

/** Unbiased (n − 1) sample variance. */
export function variance(xs: readonly number[]): number {
  if (xs.length < 2) throw new RangeError('variance needs at least 2 values')
  const m = mean(xs)
  return xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1)
}

/** Sample standard deviation (n − 1); 0 for a single value. */
export const std = (xs: readonly number[]): number => (xs.length < 2 ? 0 : Math.sqrt(variance(xs)))

/** Population standard deviation (n) around the sample's mean `m`, as numpy's `std`; 0 for one value. */
export function populationStd(xs: readonly number[], m: number): number {
  if (xs.length < 2) return 0
  return Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / xs.length)
}
