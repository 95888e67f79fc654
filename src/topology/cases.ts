import * as fs from 'node:fs'
import * as path from 'node:path'
import type { Inputs } from '../config/inputs'
import { invalidInput } from '../config/preflight'
import { localEngineProblem, refusalPlace } from './http-check'
import { resolveTopology, TopologyError } from './load'
import type { Topology } from './schema'

/** A case the suite runs: its topology, and the file it was read from. */
export interface CaseSpec {
  file: string
  topology: Topology
  /** What reading the file would have had Compose warn of (a variable read as blank); none if absent. */
  notes?: readonly string[]
}

/**
 * Every case the inputs ask for (`topology` when given, else `cases`), each file read and
 * validated once (each error names its file). Two files of one case id would mix in the history,
 * so they are refused.
 */
export function resolveCases(inputs: Inputs): CaseSpec[] {
  const asked = inputs.topology ?? inputs.cases
  const specs = asked.map(c => resolveTopology(c))
  specs.forEach(s => checkEngineFits(inputs, s))
  specs.forEach(checkBuildContexts)
  specs.forEach((s, i) => {
    const first = specs.findIndex(o => o.topology.id === s.topology.id)
    if (first !== i) {
      throw invalidInput(
        inputs.topology ? 'topology' : 'cases',
        asked.join(','),
        `${specs[first].file} and ${s.file} are both case '${s.topology.id}'`
      )
    }
  })
  return specs
}

/** A case of the head and the base measured beside it in paired mode. */
export interface CasePair {
  head: CaseSpec
  base: CaseSpec
}

/**
 * Each case of the head with its base: the same topology unless `baseline-topology` names another
 * (one file per case, in the same order; pre-flight checks the count).
 */
export function pairCases(inputs: Inputs): CasePair[] {
  const bases = inputs['baseline-topology']?.map(file => resolveTopology(file))
  return resolveCases(inputs).map((head, i) => ({ head, base: bases?.[i] ?? head }))
}

/** A build context is a directory beside the topology file, whichever engine builds or runs it. */
function checkBuildContexts(spec: CaseSpec): void {
  if (spec.topology.kind !== 'http') return
  spec.topology.services.forEach((s, i) => {
    if (!s.build) return
    const dir = path.resolve(path.dirname(spec.file), s.build.context)
    if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) {
      throw new TopologyError(
        `${spec.file}: at services.${i}.build.context ('${s.name}'): ${dir} is not a directory`
      )
    }
  })
}

/**
 * A generic topology runs on the local engine only with a command per service and nothing only a
 * container engine has (an image alone, an entrypoint, a health check, a one-shot job).
 */
function checkEngineFits(inputs: Inputs, spec: CaseSpec): void {
  if (inputs.engine !== 'local') return
  const refused = localEngineProblem(spec.topology)
  if (refused) {
    throw invalidInput(
      'engine',
      'local',
      `${spec.file}: at ${refusalPlace(refused)}: it ${refused.problem}, and the local engine runs a command per service as a process`
    )
  }
}
