import type { CaseResult } from './schema'

/** Every per-request sample of a metric over a case's measured runs (warm-up runs excluded). */
export const measuredSamples = (c: CaseResult, metric: string): number[] =>
  c.runs.filter(r => !r.warmup).flatMap(r => r.samples[metric] ?? [])
