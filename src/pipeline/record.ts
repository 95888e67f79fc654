import type { Inputs } from '../config/inputs'
import { entriesFromResult } from '../history'
import type { Log } from '../log'
import type { Result } from '../result/schema'
import type { CaseSpec } from '../topology/cases'
import { appendEntries, type HistoryLocation, type Recorded } from './location'
import { renderHook } from './render'

/** What recording needs besides the result: the run's inputs and the cases pre-flight resolved. */
interface RecordSettings {
  inputs: Inputs
  cases: readonly CaseSpec[]
  /** `https://github.com/owner/repo` for commit links, where known. */
  repositoryUrl?: string
  log?: Log
}

/**
 * Records a suite's result in the history and re-renders the report there, in one write. A result
 * lacking a case that was asked for is refused before anything is written.
 */
export async function recordResult(
  result: Result,
  location: HistoryLocation,
  { inputs, cases, repositoryUrl, log }: RecordSettings
): Promise<Recorded> {
  const topologies = cases.map(c => c.topology)
  const render = renderHook({
    topologies,
    template: inputs['readme-template'],
    maxEntries: inputs['max-entries'],
    profilesPerCase: inputs.profiles.length,
    repositoryUrl
  })
  const expected = topologies.map(t => t.id)
  return appendEntries(entriesFromResult(result, expected), location, render, log)
}
