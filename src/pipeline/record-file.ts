import type { Inputs } from '../config/inputs'
import { invalidInput } from '../config/preflight'
import { entriesFromResult, shouldRecord } from '../history'
import { resolveTopology } from '../topology/load'
import type { RecordPorts } from './ports'
import { checkHistory, checkTemplate, historyTarget } from './preflight'
import { recordResult } from './record'
import { readResult } from './result-file'

/**
 * Records a result measured elsewhere, `file`, as a run records its own, running nothing. Checked
 * before anything is written: the event (`record: auto` may not record it; parseInputs refused a
 * paired run and `record: false`), the README template, the `topology` files whose diagrams the
 * report shows, the file (untrusted: a valid result of this version, holding each case `topology`
 * names and a measured run of every case), and the history as a run's pre-flight checks it (a
 * branch that holds no history needs `adopt-branch`). Then the entries are appended and the
 * report re-rendered in one write; entries stored already are left as they are. `label` names the
 * file in errors (the CLI's flag).
 */
export async function recordResultFile(
  file: string,
  inputs: Inputs,
  ports: RecordPorts,
  label = 'result-file'
): Promise<void> {
  if (!shouldRecord(inputs.record, ports.event)) {
    throw invalidInput(
      'result-file',
      file,
      `a result file is there to be recorded, and record: ${inputs.record} does not record a ${ports.event} event: set record: true to record this one, or run this step only on events that record`
    )
  }
  checkTemplate(inputs)
  const cases = (inputs.topology ?? []).map(f => resolveTopology(f))
  const result = readResult(file, label)
  // Pure: a result lacking a case or a measured run is refused here, before the history is read.
  try {
    entriesFromResult(
      result,
      cases.map(c => c.topology.id)
    )
  } catch (err) {
    throw new Error(`${label} ${file}: ${(err as Error).message}`)
  }
  await checkHistory(historyTarget(ports.history, true, true))
  await ports.written(result, file)
  await ports.judged(null, result)
  await ports.record((target, log) =>
    recordResult(result, target, {
      inputs,
      cases,
      repositoryUrl: ports.links.repositoryUrl ?? undefined,
      log
    })
  )
}
