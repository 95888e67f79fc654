import type { CaseResult, Result, Summary } from '../result/schema'
import { profileKey } from '../profile/definition'
import { roundMicros } from '../result/resolution'
import { HISTORY_SCHEMA, seriesKey, type HistoryEntry, type PairedChange } from './schema'

/** A run summary at the samples' resolution: 17-digit floats cost 2.5 kB of a 18.5 kB entry. */
function roundSummary(s: Summary): Summary {
  const r = roundMicros
  return {
    n: s.n,
    mean: r(s.mean),
    median: r(s.median),
    p90: r(s.p90),
    p99: r(s.p99),
    min: r(s.min),
    max: r(s.max),
    std: r(s.std)
  }
}

/** Per-request values of the non-warm-up runs, pooled per metric, in run then receive order. */
function pooledSamples(c: CaseResult): Record<string, number[]> {
  const pooled: Record<string, number[]> = {}
  for (const run of c.runs.filter(r => !r.warmup)) {
    for (const [metric, values] of Object.entries(run.samples)) {
      pooled[metric] = [...(pooled[metric] ?? []), ...values.map(roundMicros)]
    }
  }
  return pooled
}

const withPaired = (p: PairedChange | undefined) => (p ? { paired: p } : {})

function commitUrl(git: Result['meta']['git']): string | null {
  if (!git.serverUrl || !git.repository || !git.sha) return null
  return `${git.serverUrl}/${git.repository}/commit/${git.sha}`
}

/**
 * One history entry per case of a finished suite; a paired run's head carries its change against
 * the base, looked up by its series key (`seriesKey`). Throws when a case in `expectCases` is
 * missing or a case has no published (non-warm-up) run: a partial suite must append nothing.
 * Pure.
 */
export function entriesFromResult(
  result: Result,
  expectCases?: string[],
  paired?: ReadonlyMap<string, PairedChange>
): HistoryEntry[] {
  const missing = (expectCases ?? []).filter(id => !result.cases.some(c => c.id === id))
  if (missing.length > 0) {
    throw new Error(`result ${result.id} lacks case(s) ${missing.join(', ')}: nothing recorded`)
  }
  const { meta } = result
  return result.cases.map(c => {
    const measured = c.runs.filter(r => !r.warmup)
    const placed = c.services.filter(s => s.nodes)
    if (measured.length === 0 && !c.sweep) {
      throw new Error(`result ${result.id}, case ${c.id}: no measured run: nothing recorded`)
    }
    return {
      schema: HISTORY_SCHEMA,
      id: `${result.id}/${c.id}/${profileKey(c.profile)}`,
      caseId: c.id,
      caseName: c.name,
      origin: 'bench',
      resultId: result.id,
      commit: {
        sha: meta.git.sha,
        ref: meta.git.ref,
        event: meta.git.event,
        repository: meta.git.repository,
        message: meta.git.message,
        url: commitUrl(meta.git)
      },
      gnes: c.kind === 'http' ? null : meta.gnes,
      engine: meta.engine,
      ...(placed.length ? { nodes: Object.fromEntries(placed.map(s => [s.name, s.nodes!])) } : {}),
      runner: meta.host.runner ?? meta.host.hostname,
      cpusAwake: meta.cpusAwake,
      load: meta.load,
      profile: c.profile,
      headline: c.headline,
      timestampEval: measured[0]?.startedAt ?? meta.startedAt,
      ...(c.verdictMetric && { verdictMetric: c.verdictMetric }),
      metrics: c.metrics,
      best: c.best,
      dataRateMBps: c.dataRateMBps,
      legacyMBps: c.legacyMBps,
      runs: c.runs.map(r => ({
        warmup: r.warmup,
        summaries: Object.fromEntries(
          Object.entries(r.summaries).map(([m, summary]) => [m, roundSummary(summary)])
        ),
        ...(r.traces && { traces: r.traces }),
        ...(r.usage && { usage: r.usage })
      })),
      samples: c.sweep ? null : pooledSamples(c),
      sweep: c.sweep,
      ...withPaired(paired?.get(seriesKey({ caseId: c.id, profile: c.profile })))
    }
  })
}
