import * as fs from 'node:fs'
import Handlebars from 'handlebars'
import type { Load } from '../result/schema'
import type { Topology } from '../topology/schema'
import { fmtWarmup } from './format'
import { describeMetric, RATE_DOCS } from './metrics'
import { topologyMermaid } from './mermaid'
import { escapeMarkdownText, inlineCode } from '../text/escape'
import { markdownTable, sweepTable } from './table'
import { profileLabel } from '../profile/definition'
import type { Series } from './series'
import { changeRows, type ChangeRow } from './steps'
import { chartPath } from '../site/layout'
import { traitsOf } from '../profile/traits'

interface ReadmeSeries {
  key: string
  /** Plain text, e.g. `minimal load (paced, 5 req/s)`. */
  label: string
  charts: { alt: string; file: string }[]
  /** Markdown table (escaped; emit raw). */
  table: string
  shown: number
  /** Entries of the series; null when an append read only the case's newest (the count is unknown). */
  total: number | null
  /** `entry` or `entries`, as the last count in "the newest {shown} of {total}" needs. */
  noun: 'entry' | 'entries'
  truncated: boolean
}

/** Text fields are Markdown-escaped (one line each); `{{name}}` adds the HTML escaping. */
interface ReadmeCase {
  id: string
  name: string
  description: string
  notes: string
  /** Mermaid source (safe to emit raw); empty when the case's topology is not known. */
  mermaid: string
  /** Minimal load first, then paced, burst, sweep. */
  series: ReadmeSeries[]
}

/** What a README template sees; documented in docs/reports.md for user templates. */
interface ReadmeContext {
  load: Load & { burstRequests: number; warmup: string }
  /** One row per load profile: `label` and `description` are the project's own Markdown (emit raw). */
  profiles: { label: string; description: string }[]
  /** `label` and `description`: the project's own Markdown (emit raw), never a name from a history. */
  metrics: { label: string; description: string }[]
  cases: ReadmeCase[]
  /** Whether the history holds GNES cases, and generic (HTTP) ones: the template says what applies. */
  gnes: boolean
  generic: boolean
  /** The `cases` value that runs this history's cases again: ids, and `<id>.yml` for custom ones. */
  runCases: string
  /** Change points of the series' headlines, newest first (cells escaped: emit raw). */
  changes: ChangeRow[]
}

/** The burst of a generic case: no stream, no legacy history to compare with. */
const GENERIC_BURST =
  'Every request of a run sent at once (each on its own connection), so they queue at the entry service; published as the best run mean.'
const GENERIC_BURST_ALSO =
  'HTTP cases: every request of a run sent at once (each on its own connection), published as the best run mean.'

const PROFILE_DOCS: { label: string; description: string }[] = [
  {
    label: '`minimal`',
    description:
      'Latency at minimal load: requests paced open loop at the case’s minimal rate (slow enough that no request waits behind another), published as the median request of the best run (the run with the lowest median). The figure pull requests are judged on.'
  },
  {
    label: '`paced`',
    description: 'The same measurement at a rate you choose (input `rate`, requests/s).'
  },
  {
    label: '`burst`',
    description:
      'The legacy standard load: every request of a run handed to one stream at once, so they queue; published as the best run mean, comparable with the imported legacy history.'
  },
  {
    label: '`sweep`',
    description:
      'A rate sweep: paced steps at rising rates (or the rates you list) with latency percentiles and achieved throughput per step, and the maximum sustainable throughput (achieved ≥ 95 % of offered and p99 within the bound); a figure marked ≥ is a lower bound: no faster step failed, so the limit lies above the rates offered.'
  }
]

/** What of a series the README reads. */
type SeriesShown = Pick<
  Series,
  'caseId' | 'key' | 'profile' | 'total' | 'truncated' | 'shown' | 'metrics' | 'charts' | 'steps'
>

/** A series of a generic (HTTP) case: its newest entry ran no GNES. */
const generic = (s: SeriesShown): boolean => s.shown[0]?.gnes === null

const CHART_ALT: Record<string, string> = {
  roundtrip: 'roundtrip over entries',
  rate: 'data rate over entries',
  legacy: 'legacy MB/s (docs ÷ roundtrip) over entries',
  hops: 'time per hop over entries',
  latency: 'latency over entries',
  throughput: 'maximum sustainable throughput over entries',
  curve: 'throughput–latency curves of the newest entries'
}

export function readmeContext(
  series: readonly SeriesShown[],
  topologies: Record<string, Topology>,
  repositoryUrl?: string
): ReadmeContext {
  const newest = series.flatMap(s => s.shown.slice(0, 1))
  const load = newest.find(e => e.origin === 'bench')?.load ??
    newest[0]?.load ?? {
      docs: 500,
      batchSize: 10,
      docBytes: 1000000,
      runs: 3,
      requests: 20,
      warmupRequests: 5
    }
  const gnesMetrics = [...new Set(series.filter(s => !generic(s)).flatMap(s => s.metrics))]
  const genericMetrics = [...new Set(series.filter(generic).flatMap(s => s.metrics))]
  const hasGnes = series.some(s => !generic(s))
  const hasGeneric = series.some(generic)
  const both = hasGnes && hasGeneric
  const caseIds = [...new Set(series.map(s => s.caseId))]
  return {
    load: {
      ...load,
      burstRequests: Math.ceil(load.docs / load.batchSize),
      warmup: fmtWarmup(load)
    },
    gnes: hasGnes,
    generic: hasGeneric,
    // The burst is GNES's legacy load; a generic case's burst is its own (no legacy to compare).
    profiles: PROFILE_DOCS.map(p =>
      p.label !== '`burst`' || !hasGeneric
        ? p
        : { ...p, description: hasGnes ? `${p.description} ${GENERIC_BURST_ALSO}` : GENERIC_BURST }
    ),
    metrics: [
      ...gnesMetrics.map(name => ({ label: inlineCode(name), description: describeMetric(name) })),
      ...(gnesMetrics.length
        ? [
            { label: 'Data rate (MB/s)', description: RATE_DOCS.dataRateMBps },
            { label: 'Legacy "MB/s"', description: RATE_DOCS.legacyMBps }
          ]
        : []),
      ...genericMetrics.map(name => ({
        label: `${inlineCode(name)}${both ? ' (HTTP cases)' : ''}`,
        description: describeMetric(name, true)
      }))
    ],
    runCases: caseIds.map(id => (/^\d+$/.test(id) ? id : `${id}.yml`)).join(','),
    changes: changeRows(series, repositoryUrl),
    cases: caseIds.map(id => readmeCase(id, series, topologies, repositoryUrl))
  }
}

/** One case's section: its topology's text and diagram, and each of its series. */
function readmeCase(
  id: string,
  series: readonly SeriesShown[],
  topologies: Record<string, Topology>,
  repositoryUrl?: string
): ReadmeCase {
  const topology = topologies[id]
  const own = series.filter(s => s.caseId === id)
  // Handlebars escapes HTML in `{{name}}`; Markdown is escaped here, so text stays text.
  return {
    id: escapeMarkdownText(id),
    name: escapeMarkdownText(topology?.name ?? own[0].shown[0].caseName),
    description: escapeMarkdownText(topology?.description ?? ''),
    notes: escapeMarkdownText(topology?.notes ?? ''),
    mermaid: topology ? topologyMermaid(topology, own[0].shown[0]?.nodes) : '',
    series: own.map(s => readmeSeries(s, repositoryUrl))
  }
}

function readmeSeries(s: SeriesShown, repositoryUrl?: string): ReadmeSeries {
  return {
    key: s.key,
    label: profileLabel(s.profile, generic(s)),
    charts: s.charts.map(ch => ({
      alt: CHART_ALT[ch.kind],
      file: chartPath(ch.name, 'svg')
    })),
    table:
      traitsOf(s.profile).publishes === 'sweep'
        ? sweepTable(s.shown, repositoryUrl)
        : markdownTable(s.shown, s.metrics, repositoryUrl, s.profile.kind, generic(s)),
    shown: s.shown.length,
    total: s.total,
    noun: (s.total ?? s.shown.length) === 1 ? 'entry' : 'entries',
    truncated: s.truncated
  }
}

/**
 * Why the README template file cannot be used (not a file, or Handlebars cannot parse it, with
 * the line it names), or null: checked before a run, so a typo costs seconds, not a suite.
 */
export function templateProblem(file: string): string | null {
  const stat = fs.statSync(file, { throwIfNoEntry: false })
  if (!stat) return 'no such file (a Handlebars template is expected)'
  if (!stat.isFile()) return 'is not a file (a Handlebars template is expected)'
  try {
    Handlebars.parse(fs.readFileSync(file, 'utf8'))
    return null
  } catch (err) {
    // Handlebars says `Parse error on line 3:`, the line with a caret under it, then why.
    const lines = (err as Error).message.split('\n').filter(l => l.trim() !== '')
    const why = lines.length > 1 ? `: ${lines.at(-1)}` : ''
    return `is not a Handlebars template: ${lines[0].replace(/:$/, '')}${why}`
  }
}

/**
 * Renders a README template. Handlebars' HTML escaping stays on, so `{{value}}` in a user's
 * template cannot inject markup; the pre-escaped blocks (table, mermaid) are emitted with `{{{ }}}`.
 */
export function renderReadme(template: string, context: ReadmeContext): string {
  return Handlebars.compile(template, { strict: false })(context)
}
