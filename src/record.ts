import * as path from 'node:path'
import { caseList, type Inputs } from './config/inputs'
import {
  appendToBranch,
  appendToDir,
  entriesFromResult,
  type AppendOutcome,
  type HistoryEntry,
  type Render
} from './history'
import { renderReport } from './render'
import type { Result } from './result/schema'
import { resolveTopology } from './topology/load'
import type { Topology } from './topology/schema'

/** Topologies by case id for diagrams: the standard four plus the given files. */
export function knownTopologies(extra: string[] = []): Record<string, Topology> {
  const all: Record<string, Topology> = {}
  for (const c of ['1', '2', '3', '4', ...extra]) {
    const { topology } = resolveTopology(c)
    all[topology.id] = topology
  }
  return all
}

export interface RenderSettings {
  topologies: Record<string, Topology>
  template: string | null
  maxEntries: number
  repositoryUrl?: string
}

export const renderSettings = (inputs: Inputs, repositoryUrl?: string): RenderSettings => ({
  topologies: knownTopologies(caseList(inputs)),
  template: inputs['readme-template'],
  maxEntries: inputs['max-entries'],
  repositoryUrl
})

/** Re-renders README, charts and dashboard from the whole history into the history directory. */
export function renderHook(s: RenderSettings): Render {
  return async (historyDir, all) => {
    await renderReport({
      entries: all,
      topologies: s.topologies,
      outDir: historyDir,
      template: s.template ?? undefined,
      maxEntries: s.maxEntries,
      repositoryUrl: s.repositoryUrl
    })
  }
}

export type HistoryLocation =
  | { kind: 'dir'; dir: string }
  | { kind: 'branch'; repo: string; branch: string; dir: string; token?: string }

export const describeLocation = (l: HistoryLocation): string =>
  l.kind === 'dir' ? path.resolve(l.dir) : `${l.repo} ${l.branch}:${l.dir}`

/** Appends entries and re-renders the report in the same write (one commit on a branch). */
export async function appendEntries(
  entries: HistoryEntry[],
  location: HistoryLocation,
  render: Render
): Promise<AppendOutcome> {
  if (location.kind === 'dir') return appendToDir({ dir: location.dir, entries, render })
  return appendToBranch({
    repo: location.repo,
    branch: location.branch,
    dir: location.dir,
    token: location.token,
    entries,
    render
  })
}

/** A result's entries; a result lacking a case that was asked for records nothing. */
export function recordResult(
  result: Result,
  inputs: Inputs,
  location: HistoryLocation,
  render: Render
): Promise<AppendOutcome> {
  const expected = caseList(inputs).map(c => resolveTopology(c).topology.id)
  return appendEntries(entriesFromResult(result, expected), location, render)
}
