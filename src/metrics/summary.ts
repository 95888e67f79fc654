import type { Summary } from './schema'
import { mean, quantile, std } from '../stats/sample'

/** A run's samples of one metric as its summary: count, mean, quantiles, extremes, spread. */
export function summarize(xs: number[]): Summary {
  if (xs.length === 0) throw new Error('cannot summarize an empty sample')
  const sorted = [...xs].sort((a, b) => a - b)
  return {
    n: xs.length,
    mean: mean(xs),
    median: quantile(sorted, 0.5),
    p90: quantile(sorted, 0.9),
    p99: quantile(sorted, 0.99),
    min: sorted[0],
    max: sorted[sorted.length - 1],
    std: std(xs)
  }
}
