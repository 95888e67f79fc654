import Handlebars from 'handlebars'
import type { HistoryEntry } from '../history/schema'
import type { Load } from '../result/schema'
import type { Topology } from '../topology/schema'
import { metricCode } from './format'
import { describeMetric, RATE_DOCS } from './metrics'
import { topologyMermaid } from './mermaid'
import { markdownTable } from './table'

export interface ReadmeCase {
  id: string
  name: string
  description: string
  notes: string
  /** Mermaid source (safe to emit raw); empty when the case's topology is not known. */
  mermaid: string
  charts: { alt: string; file: string }[]
  /** Markdown table (escaped; emit raw). */
  table: string
  shown: number
  total: number
  truncated: boolean
}

/** What a README template sees; documented in docs/reports.md for user templates. */
export interface ReadmeContext {
  load: Load & { requests: number }
  /** `label` is Markdown (emit raw), `description` plain text. */
  metrics: { label: string; description: string }[]
  cases: ReadmeCase[]
}

export interface CaseInput {
  id: string
  /** How many entries the case holds in all. */
  total: number
  /** The newest `maxEntries`, which the README shows. */
  shown: HistoryEntry[]
  metrics: string[]
  charts: { name: string; kind: string }[]
}

const CHART_ALT: Record<string, string> = {
  roundtrip: 'roundtrip over versions',
  rate: 'data rate and legacy MB/s over versions',
  hops: 'time per hop over versions'
}

export function readmeContext(
  cases: CaseInput[],
  topologies: Record<string, Topology>,
  repositoryUrl?: string
): ReadmeContext {
  const newest = cases.flatMap(c => c.shown.slice(0, 1))
  const load = newest.find(e => e.origin === 'bench')?.load ??
    newest[0]?.load ?? { docs: 500, batchSize: 10, docBytes: 1000000, runs: 3, warmupRuns: 1 }
  const metricNames = [...new Set(cases.flatMap(c => c.metrics))]
  return {
    load: { ...load, requests: Math.ceil(load.docs / load.batchSize) },
    metrics: [
      ...metricNames.map(name => ({ label: metricCode(name), description: describeMetric(name) })),
      { label: 'Data rate (MB/s)', description: RATE_DOCS.dataRateMBps },
      { label: 'Legacy "MB/s"', description: RATE_DOCS.legacyMBps }
    ],
    cases: cases.map(c => {
      const topology = topologies[c.id]
      return {
        id: c.id,
        name: topology?.name ?? c.shown[0]?.caseName ?? c.id,
        description: topology?.description ?? '',
        notes: topology?.notes ?? '',
        mermaid: topology ? topologyMermaid(topology) : '',
        charts: c.charts.map(ch => ({ alt: CHART_ALT[ch.kind], file: `charts/${ch.name}.svg` })),
        table: markdownTable(c.shown, c.metrics, repositoryUrl),
        shown: c.shown.length,
        total: c.total,
        truncated: c.shown.length < c.total
      }
    })
  }
}

/**
 * Renders a README template. Handlebars' HTML escaping stays on, so `{{value}}` in a user's
 * template cannot inject markup; the pre-escaped blocks (table, mermaid) are emitted with `{{{ }}}`.
 */
export function renderReadme(template: string, context: ReadmeContext): string {
  return Handlebars.compile(template, { strict: false })(context)
}
