import { checkInputs, checkWritableDir } from '../config/preflight'
import type { Inputs } from '../config/inputs'
import { checkLimitsReachDocker } from '../engine/select'
import { checkReachable } from '../history/git'
import { pairCases, type CasePair, type CaseSpec } from '../topology/cases'

/** Where the run will read or write its history, as far as pre-flight needs to know. */
interface HistoryTarget {
  /** A plain history directory the run writes into. */
  dir?: string
  /** A git repository (path or URL) whose branch keeps the history. */
  repository?: { url: string; token?: string }
}

/**
 * Every check that needs no network, in the order of the stages; each case with the base a paired
 * run measures beside it (every topology file read and validated once).
 */
export function checkPairedRun(inputs: Inputs): CasePair[] {
  checkInputs(inputs)
  return pairCases(inputs)
}

/** `checkPairedRun`'s cases of the head: what a run in history mode measures. */
export const checkRun = (inputs: Inputs): CaseSpec[] => checkPairedRun(inputs).map(p => p.head)

/**
 * `checkPairedRun`, then what costs a round trip: Docker for limits under `engine: auto`, and the
 * history's directory or repository. Each stage checks what it owns; the error names the input.
 * Returns every case with its base (the head itself outside paired mode).
 */
export async function preflight(inputs: Inputs, history: HistoryTarget = {}): Promise<CasePair[]> {
  const cases = checkPairedRun(inputs)
  await checkLimitsReachDocker(inputs)
  if (history.dir) checkWritableDir('history-dir', history.dir)
  if (history.repository) await checkReachable(history.repository.url, history.repository.token)
  return cases
}
