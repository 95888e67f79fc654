import type { Render } from '../history'
import { renderReport } from '../render'
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
}

/** Re-renders README, charts and dashboard from the whole history into the history directory. */
export function renderHook(s: RenderSettings): Render {
  const topologies = knownTopologies(s.topologyFiles)
  return async (historyDir, all) => {
    await renderReport({
      entries: all,
      topologies,
      outDir: historyDir,
      template: s.template ?? undefined,
      maxEntries: s.maxEntries,
      repositoryUrl: s.repositoryUrl
    })
  }
}
