import { profileKey } from '../profile/definition'
import { fmtMs } from '../text/duration'
import { fmtRate } from '../text/rate'
import type { CaseResult, Result } from './schema'

/** The published figure a row leads with: the headline in ms, or a sweep's maximum throughput. */
function headlineFigure(c: CaseResult): string {
  if (c.sweep) {
    const max = c.sweep.maxThroughput
    return max === null ? 'no step sustained' : `${fmtRate(max, 2)} req/s`
  }
  const v = c.best[c.headline]
  return v === undefined ? '-' : `${fmtMs(v, 1)} ms`
}

/** A plain-text table of the published figures, one row per case and profile, for terminals. */
export function resultTable(result: Result): string {
  const header = ['case', 'profile', 'figure', 'value', 'data rate (MB/s)', 'legacy MB/s']
  const rows = result.cases.map(c => [
    `${c.id} ${c.name}`,
    profileKey(c.profile),
    c.sweep ? 'max throughput' : c.headline,
    headlineFigure(c),
    c.dataRateMBps === null ? '-' : fmtRate(c.dataRateMBps, 1),
    c.legacyMBps === null ? '-' : fmtRate(c.legacyMBps, 0)
  ])
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map(r => r[i].length)))
  const line = (cells: string[]) =>
    cells.map((c, i) => (i < 3 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ')
  return [line(header), widths.map(w => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n')
}
