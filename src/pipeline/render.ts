import type { Render } from '../history'
import { mergeMonthData, monthDataPath, renderReport, renderStatic } from '../render'
import { resolveTopology } from '../topology/load'
import type { Topology } from '../topology/schema'

/** Topologies by case id for diagrams: the standard four plus the given files. */
export function knownTopologies(extra: string[] = []): Record<string, Topology> {
  const all: Record<string, Topology> = {}
  for (const c of ['1', '2', '3', '4', ...extra]) {
    const { topology } = resolveTopology(c)
    all[topology.id] = topology
  }
  return all
}

interface RenderSettings {
  /** Case files beyond the standard four whose diagrams the report shows. */
  topologyFiles?: string[]
  template: string | null
  maxEntries: number
  repositoryUrl?: string
  /**
   * Load profiles a case is run under (1 when unknown): an append reads a case's newest
   * `maxEntries` × this many entries, so each series' table and charts can fill.
   */
  profilesPerCase?: number
}

/** README, charts and dashboard into the history directory, in the same write as the entries. */
export function renderHook(s: RenderSettings): Render {
  const options = {
    topologies: knownTopologies(s.topologyFiles),
    template: s.template ?? undefined,
    maxEntries: s.maxEntries,
    repositoryUrl: s.repositoryUrl
  }
  return {
    recent: s.maxEntries * (s.profilesPerCase ?? 1),
    async report(outDir, cases) {
      await renderStatic({ ...options, outDir, cases })
    },
    monthDataPath,
    mergeMonthData: (file, caseId, month, previous, added) =>
      mergeMonthData(file, caseId, month, previous, added, s.repositoryUrl),
    async full(outDir, entries) {
      await renderReport({ ...options, outDir, entries })
    }
  }
}
