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
import { redactUrl } from './history/git'
import { mergeMonthData, monthDataPath, renderReport, renderStatic } from './render'
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

/** README, charts and dashboard into the history directory, in the same write as the entries. */
export function renderHook(s: RenderSettings): Render {
  const options = {
    topologies: s.topologies,
    template: s.template ?? undefined,
    maxEntries: s.maxEntries,
    repositoryUrl: s.repositoryUrl
  }
  return {
    recent: s.maxEntries,
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

export type HistoryLocation =
  | { kind: 'dir'; dir: string }
  | {
      kind: 'branch'
      repo: string
      branch: string
      dir: string
      token?: string
      /** Write onto an existing branch that holds no history yet. */
      adopt?: boolean
    }

/** Where the history is, for messages: a credential inside a repository URL is never printed. */
export const describeLocation = (l: HistoryLocation): string =>
  l.kind === 'dir' ? path.resolve(l.dir) : `${redactUrl(l.repo)} ${l.branch}:${l.dir}`

/** How many entries the history holds after an append, where the store knows. */
export interface Recorded extends AppendOutcome {
  total: number | null
  /** Entries the branch's index lists but the branch lacks (warned about in `log`). */
  missing: string[]
}

/** Appends entries and re-renders the report in the same write (one commit on a branch). */
export async function appendEntries(
  entries: HistoryEntry[],
  location: HistoryLocation,
  render: Render,
  log?: (line: string) => void
): Promise<Recorded> {
  if (location.kind === 'dir') {
    const out = await appendToDir({ dir: location.dir, entries, render })
    return { ...out, total: out.all.length, missing: [] }
  }
  return appendToBranch({
    repo: location.repo,
    branch: location.branch,
    dir: location.dir,
    token: location.token,
    adopt: location.adopt,
    entries,
    render,
    log
  })
}

/** A result's entries; a result lacking a case that was asked for records nothing. */
export function recordResult(
  result: Result,
  inputs: Inputs,
  location: HistoryLocation,
  render: Render,
  log?: (line: string) => void
): Promise<Recorded> {
  const expected = caseList(inputs).map(c => resolveTopology(c).topology.id)
  return appendEntries(entriesFromResult(result, expected), location, render, log)
}
