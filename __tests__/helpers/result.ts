import { ResultSchema, type Result } from '../../src/result/schema'

/**
 * What a suite returns is what a reader of the stored file gets back: it survives JSON and
 * validates again, its times are in order, and each run's summaries describe its own samples.
 */
export function expectStorableResult(result: Result): void {
  expect(ResultSchema.parse(JSON.parse(JSON.stringify(result)))).toEqual(result)
  expect(Date.parse(result.meta.finishedAt)).toBeGreaterThanOrEqual(
    Date.parse(result.meta.startedAt)
  )
  for (const c of result.cases) {
    for (const r of c.runs) {
      for (const m of c.metrics) expect(r.summaries[m].n).toBe(r.samples[m].length)
    }
  }
}
