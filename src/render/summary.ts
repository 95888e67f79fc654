import type { Result } from '../result/schema'
import { escapeMarkdown, inlineCode } from '../text/escape'
import { fmtRate, fmtSeconds } from './format'

const row = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`
const alignRow = (n: number, left: number): string =>
  row(Array.from({ length: n }, (_, i) => (i < left ? ':--' : '--:')))

/**
 * The run as Markdown for `$GITHUB_STEP_SUMMARY`: what was measured, the published figure per case
 * and metric, and each run's roundtrip so a slow warm-up or an outlier run is visible.
 */
export function jobSummary(result: Result): string {
  const { gnes, load, git, engine } = result.meta
  const metrics = [...new Set(result.cases.flatMap(c => c.metrics))]
  const sha = git.sha ? inlineCode(git.sha.slice(0, 7)) : ''
  const ref = git.ref ? ` on ${escapeMarkdown(git.ref)}` : ''
  const lines = [
    '## GNES latency benchmark',
    '',
    [
      `GNES ${escapeMarkdown(gnes.version)} (${escapeMarkdown(gnes.tag)}${gnes.vcs ? ` ${escapeMarkdown(gnes.vcs.slice(0, 7))}` : ''})`,
      `${engine} engine`,
      `${load.docs} docs × ${load.docBytes} B in batches of ${load.batchSize}`,
      `${load.runs} runs after ${load.warmupRuns} warm-up`,
      ...(sha ? [`commit ${sha}${ref}`] : [])
    ].join(' · '),
    '',
    row(['Case', ...metrics.map(m => `${inlineCode(m)} (s)`), 'Data rate (MB/s)', 'Legacy "MB/s"']),
    alignRow(metrics.length + 3, 1),
    ...result.cases.map(c =>
      row([
        `${escapeMarkdown(c.id)} ${escapeMarkdown(c.name)}`,
        ...metrics.map(m => fmtSeconds(c.best[m])),
        fmtRate(c.dataRateMBps),
        String(Math.round(c.legacyMBps))
      ])
    ),
    '',
    'Figures are the best run mean per metric; legacy "MB/s" is docs ÷ roundtrip, not a data rate.',
    '',
    '<details><summary>Roundtrip per run</summary>',
    '',
    row(['Case', 'Run', 'Mean (s)', 'Median (s)', 'p90 (s)', 'Max (s)', 'Data rate (MB/s)']),
    alignRow(7, 2),
    ...result.cases.flatMap(c =>
      c.runs.map(r => {
        const s = r.summaries.roundtrip
        return row([
          escapeMarkdown(c.id),
          `${r.index}${r.warmup ? ' (warm-up)' : ''}`,
          fmtSeconds(s?.mean),
          fmtSeconds(s?.median),
          fmtSeconds(s?.p90),
          fmtSeconds(s?.max),
          fmtRate(r.dataRateMBps)
        ])
      })
    ),
    '',
    '</details>',
    ''
  ]
  return lines.join('\n')
}
