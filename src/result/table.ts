import { LEGACY_METRICS } from '../history'
import type { Result } from './schema'

/** A plain-text table of the published figures, one row per case, for terminals and logs. */
export function resultTable(result: Result): string {
  const metrics = LEGACY_METRICS
  const header = ['case', ...metrics.map(m => `${m} (s)`), 'data rate (MB/s)', 'legacy MB/s']
  const rows = result.cases.map(c => [
    `${c.id} ${c.name}`,
    ...metrics.map(m => (m in c.best ? c.best[m].toFixed(3) : '-')),
    c.dataRateMBps.toFixed(1),
    c.legacyMBps.toFixed(0)
  ])
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map(r => r[i].length)))
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ')
  return [line(header), widths.map(w => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n')
}
