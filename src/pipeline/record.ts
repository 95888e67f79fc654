import type { Log } from '../log'
import { caseList, type Inputs } from '../config/inputs'
import { entriesFromResult } from '../history'
import type { Result } from '../result/schema'
import { resolveTopology } from '../topology/load'
import { appendEntries, type HistoryLocation, type Recorded } from './location'
import { renderHook } from './render'

/**
 * Records a suite's result in the history and re-renders the report there, in one write. A result
 * lacking a case that was asked for is refused before anything is written.
 */
export async function recordResult(
  result: Result,
  inputs: Inputs,
  location: HistoryLocation,
  repositoryUrl?: string,
  log?: Log
): Promise<Recorded> {
  const cases = caseList(inputs)
  const expected = cases.map(c => resolveTopology(c).topology.id)
  const render = renderHook({
    topologyFiles: cases,
    template: inputs['readme-template'],
    maxEntries: inputs['max-entries'],
    profilesPerCase: inputs.profiles.length,
    repositoryUrl
  })
  return appendEntries(entriesFromResult(result, expected), location, render, log)
}
