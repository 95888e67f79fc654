import { profileKey, profileLabel } from '../profile/definition'
import { throughputIsLowerBound } from '../metrics/sweep'
import type { CaseResult, Result } from '../result/schema'
import { escapeMarkdown, inlineCode } from '../text/escape'
import { fmtRate } from '../text/rate'
import { fmtWarmup, metricCell, metricHeading, msCell, rateCell } from './format'
import { traitsOf } from '../profile/traits'

const row = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`
const alignRow = (n: number, left: number): string =>
  row(Array.from({ length: n }, (_, i) => (i < left ? ':--' : '--:')))

const caseCell = (c: CaseResult): string => `${escapeMarkdown(c.id)} ${escapeMarkdown(c.name)}`

/** Burst and paced cases of one profile: the published figure per metric, and each run's headline. */
function timingSection(cases: CaseResult[]): string[] {
  const metrics = [...new Set(cases.flatMap(c => c.metrics))]
  // Data rates are GNES's: documents of a known size.
  const burst = traitsOf(cases[0].profile).chart === 'burst' && cases.some(c => c.kind === 'gnes')
  const headline = cases[0].headline
  return [
    row([
      'Case',
      ...metrics.map(metricHeading),
      ...(burst ? ['Data rate (MB/s)', 'Legacy "MB/s"'] : [])
    ]),
    alignRow(metrics.length + 1 + (burst ? 2 : 0), 1),
    ...cases.map(c =>
      row([
        caseCell(c),
        ...metrics.map(m => metricCell(m, c.best[m])),
        ...(burst
          ? [
              rateCell(c.dataRateMBps),
              c.legacyMBps === null ? '–' : String(Math.round(c.legacyMBps))
            ]
          : [])
      ])
    ),
    '',
    burst
      ? 'Figures are the best run mean per metric; legacy "MB/s" is docs ÷ roundtrip, not a data rate.'
      : 'Figures are every metric’s median in the best run (the measured run with the lowest median headline).',
    '',
    `<details><summary>${inlineCode(headline)} per run</summary>`,
    '',
    row(['Case', 'Run', 'Mean (ms)', 'Median (ms)', 'p90 (ms)', 'Max (ms)']),
    alignRow(6, 2),
    ...cases.flatMap(c =>
      c.runs.map(r => {
        const s = r.summaries[headline]
        return row([
          escapeMarkdown(c.id),
          `${r.index}${r.warmup ? ' (warm-up)' : ''}`,
          msCell(s?.mean),
          msCell(s?.median),
          msCell(s?.p90),
          msCell(s?.max)
        ])
      })
    ),
    '',
    '</details>'
  ]
}

function throughputText(sweep: NonNullable<CaseResult['sweep']>): string {
  if (sweep.maxThroughput === null) return 'none (no step sustained)'
  const figure = `**${fmtRate(sweep.maxThroughput, 2)} req/s**`
  return throughputIsLowerBound(sweep.points)
    ? `at least ${figure} (no faster step failed: the limit lies above the rates offered)`
    : figure
}

function sweepSection(cases: CaseResult[]): string[] {
  return cases.flatMap(c => [
    `**${caseCell(c)}**: maximum sustainable throughput ${throughputText(c.sweep!)} (p99 bound ${msCell(c.sweep!.maxP99)} ms, ${escapeMarkdown(c.sweep!.bound)})`,
    '',
    row([
      'Offered (req/s)',
      'Achieved (req/s)',
      'p50 (ms)',
      'p90 (ms)',
      'p99 (ms)',
      'Max (ms)',
      'Errors',
      'Sustained'
    ]),
    alignRow(8, 0),
    ...c.sweep!.points.map(p =>
      row([
        fmtRate(p.offered, 2),
        fmtRate(p.achieved, 2),
        msCell(p.latency.p50),
        msCell(p.latency.p90),
        msCell(p.latency.p99),
        msCell(p.latency.max),
        String(p.errors),
        p.sustained ? 'yes' : 'no'
      ])
    ),
    ''
  ])
}

/**
 * The run as Markdown for `$GITHUB_STEP_SUMMARY`: what was measured, then per load profile the
 * published figures, each run's headline (a slow warm-up or outlier shows) and a sweep's steps.
 */
export function jobSummary(result: Result): string {
  const { gnes, load, git, engine } = result.meta
  const sha = git.sha ? inlineCode(git.sha.slice(0, 7)) : ''
  const ref = git.ref ? ` on ${escapeMarkdown(git.ref)}` : ''
  const groups = new Map<string, CaseResult[]>()
  for (const c of result.cases) {
    const key = profileKey(c.profile)
    groups.set(key, [...(groups.get(key) ?? []), c])
  }
  const lines = [
    gnes ? '## GNES latency benchmark' : '## Latency benchmark',
    '',
    [
      ...(gnes
        ? [
            `GNES ${escapeMarkdown(gnes.version)} (${escapeMarkdown(gnes.tag)}${gnes.vcs ? ` ${escapeMarkdown(gnes.vcs.slice(0, 7))}` : ''})`
          ]
        : []),
      `${engine} engine`,
      ...(gnes ? [`requests of ${load.batchSize} docs × ${load.docBytes} B`] : []),
      `${load.runs} runs per profile after ${fmtWarmup(load)}`,
      ...(sha ? [`commit ${sha}${ref}`] : [])
    ].join(' · '),
    ''
  ]
  for (const cases of groups.values()) {
    const generic = cases.every(c => c.kind === 'http')
    lines.push(`### ${escapeMarkdown(profileLabel(cases[0].profile, generic))}`, '')
    lines.push(...(cases[0].sweep ? sweepSection(cases) : timingSection(cases)), '')
  }
  return lines.join('\n')
}
