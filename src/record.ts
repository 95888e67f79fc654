import * as path from 'node:path'
import type { Inputs } from './config/inputs'
import {
  appendToBranch,
  appendToDir,
  entriesFromResult,
  type AppendOutcome,
  type Render
} from './history'
import { renderReport } from './render'
import type { Result } from './result/schema'
import { resolveTopology } from './topology/load'
import type { Topology } from './topology/schema'

/** Topologies by case id for diagrams: the standard four plus whatever this run used. */
export function knownTopologies(inputs: Inputs): Record<string, Topology> {
  const all: Record<string, Topology> = {}
  for (const c of ['1', '2', '3', '4', ...(inputs.topology ?? inputs.cases)]) {
    const { topology } = resolveTopology(c)
    all[topology.id] = topology
  }
  return all
}

/** Re-renders README, charts and dashboard from the whole history into the history directory. */
export function renderHook(inputs: Inputs, repositoryUrl?: string): Render {
  const topologies = knownTopologies(inputs)
  return async (historyDir, all) => {
    await renderReport({
      entries: all,
      topologies,
      outDir: historyDir,
      template: inputs['readme-template'] ?? undefined,
      maxEntries: inputs['max-entries'],
      repositoryUrl
    })
  }
}

export type HistoryLocation =
  | { kind: 'dir'; dir: string }
  | { kind: 'branch'; repo: string; branch: string; dir: string; token?: string }

/** Appends the result's entries and re-renders the report in the same write (one commit on git). */
export async function recordResult(
  result: Result,
  location: HistoryLocation,
  render: Render
): Promise<AppendOutcome & { where: string }> {
  const entries = entriesFromResult(result)
  if (location.kind === 'dir') {
    const outcome = await appendToDir({ dir: location.dir, entries, render })
    return { ...outcome, where: path.resolve(location.dir) }
  }
  const outcome = await appendToBranch({
    repo: location.repo,
    branch: location.branch,
    dir: location.dir,
    token: location.token,
    entries,
    render
  })
  return { ...outcome, where: `${location.branch}:${location.dir} (commit ${outcome.commit})` }
}
