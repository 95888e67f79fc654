import type { HistoryEntry } from '../history/schema'
import { traitsOf } from '../profile/traits'

/**
 * The headline's p90 and p99 (seconds) in the run a paced entry's median was published from (the
 * measured run whose median it is), so a median and its tail describe the same requests. Null
 * where the entry kept no run summaries (imported, legacy) or is not paced.
 */
export function headlineTail(e: HistoryEntry): { p90: number; p99: number } | null {
  if (traitsOf(e.profile).publishes !== 'run-median') return null
  const best = e.best[e.headline]
  const summaries = e.runs
    .filter(r => !r.warmup)
    .map(r => r.summaries[e.headline])
    .filter(s => s !== undefined)
  if (best === undefined || !summaries.length) return null
  const run = summaries.reduce((a, b) =>
    Math.abs(b.median - best) < Math.abs(a.median - best) ? b : a
  )
  return { p90: run.p90, p99: run.p99 }
}
