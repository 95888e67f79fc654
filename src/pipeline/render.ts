import type { Render } from '../history'
import { monthData, reportSite, wholeSite } from '../render'
import { resolveTopology } from '../topology/load'
import type { Topology } from '../topology/schema'

/** Topologies by case id for diagrams: the given ones, and the standard four they leave out. */
export function knownTopologies(given: readonly Topology[] = []): Record<string, Topology> {
  const all: Record<string, Topology> = {}
  for (const c of ['1', '2', '3', '4']) {
    if (!given.some(t => t.id === c)) all[c] = resolveTopology(c).topology
  }
  for (const t of given) all[t.id] = t
  return all
}

interface RenderSettings {
  /** Topologies already read (the suite's cases) whose diagrams the report shows. */
  topologies?: readonly Topology[]
  template: string | null
  maxEntries: number
  repositoryUrl?: string
  /**
   * Load profiles a case is run under (1 when unknown): an append reads a case's newest
   * `maxEntries` × this many entries, so each series' table and charts can fill.
   */
  profilesPerCase?: number
}

/** README, charts and dashboard for the history directory, in the same write as the entries. */
export function renderHook(s: RenderSettings): Render {
  const options = {
    topologies: knownTopologies(s.topologies),
    template: s.template ?? undefined,
    maxEntries: s.maxEntries,
    repositoryUrl: s.repositoryUrl
  }
  return {
    recent: s.maxEntries * (s.profilesPerCase ?? 1),
    report: cases => reportSite({ ...options, cases }),
    monthData: (caseId, month, entries) =>
      Buffer.from(monthData(caseId, month, entries, s.repositoryUrl)),
    full: entries => wholeSite({ ...options, entries })
  }
}
