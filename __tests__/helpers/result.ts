import { isCpuMetric, isMemMetric } from '../../src/metrics/usage'
import { ResultSchema, type Result } from '../../src/result/schema'

/**
 * What a suite returns is what a reader of the stored file gets back: it survives JSON and
 * validates again, its times are in order, and each run's summaries describe its own samples:
 * every metric of its case, except that a warm-up, which has no window, has no `cpu:` or `mem:`.
 */
export function expectStorableResult(result: Result): void {
  expect(ResultSchema.parse(JSON.parse(JSON.stringify(result)))).toEqual(result)
  expect(Date.parse(result.meta.finishedAt)).toBeGreaterThanOrEqual(
    Date.parse(result.meta.startedAt)
  )
  for (const c of result.cases) {
    for (const r of c.runs) {
      for (const m of c.metrics) {
        if (r.warmup && (isCpuMetric(m) || isMemMetric(m))) expect(r.summaries[m]).toBeUndefined()
        else expect(r.summaries[m].n).toBe(r.samples[m].length)
      }
    }
  }
}

/** The usage metrics a run of these services publishes, in the order a case lists them. */
export const usageMetrics = (services: readonly string[]): string[] => [
  ...[...services, 'total'].map(s => `cpu:${s}`),
  ...services.map(s => `mem:${s}`)
]
