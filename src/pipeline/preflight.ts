import { checkInputs, checkWritableDir, invalidInput } from '../config/preflight'
import { templateProblem } from '../render'
import type { Inputs } from '../config/inputs'
import { checkAutoEngine } from '../engine/select'
import { engineSettings } from './engine-settings'
import { checkBranchWritable } from '../history'
import { checkBranchNames, checkReachable } from '../history/preflight'
import { pairCases, type CasePair, type CaseSpec } from '../topology/cases'
import type { Log } from '../log'
import type { HistoryLocation } from './location'

/** Where the run will read or write its history, as far as pre-flight needs to know. */
export interface HistoryTarget {
  /** A plain history directory the run writes into. */
  dir?: string
  /**
   * A git repository (path or URL) whose branch keeps the history in `dir`; `writes` when the run
   * will append to it (then the branch is read as an append reads it).
   */
  repository?: {
    url: string
    token?: string
    branch: string
    dir: string
    writes: boolean
    adopt?: boolean
  }
}

/**
 * Every check that needs no network, in the order of the stages; each case with the base a paired
 * run measures beside it (every topology file read and validated once).
 */
export function checkPairedRun(inputs: Inputs): CasePair[] {
  checkInputs(inputs)
  checkTemplate(inputs)
  return pairCases(inputs)
}

/** The README template a recording renders with, read and compiled before anything runs. */
export function checkTemplate(inputs: Inputs): void {
  const template = inputs['readme-template']
  const why = template && templateProblem(template)
  if (why) throw invalidInput('readme-template', template, why)
}

/** Pre-flight's view of a history location: checked for writing when the run records. */
export function historyTarget(
  history: HistoryLocation,
  reads: boolean,
  writes: boolean
): HistoryTarget {
  if (history.kind === 'dir') return writes ? { dir: history.dir } : {}
  if (!reads) return {}
  const { repo: url, token, branch, dir, adopt } = history
  return { repository: { url, token, branch, dir, writes, adopt } }
}

/**
 * The history's directory or repository: its names, then whether it answers and, where the run
 * writes, whether an append would take it (a branch holding no history needs `adopt`).
 */
export async function checkHistory(history: HistoryTarget): Promise<void> {
  if (history.dir) checkWritableDir('history-dir', history.dir)
  if (history.repository) {
    const { url, token, branch, dir, writes, adopt } = history.repository
    await checkBranchNames(branch, dir)
    await checkReachable(url, token)
    if (writes) await checkBranchWritable({ repo: url, token, branch, dir, adopt })
  }
}

/** What reading each case's files would have had Compose warn of, once per case read. */
export function warnCaseNotes(cases: readonly CaseSpec[], log: Log): void {
  for (const spec of new Set(cases)) {
    for (const note of spec.notes ?? []) log.warn(`${spec.file}: ${note}`)
  }
}

/** `checkPairedRun`'s cases of the head: what a run in history mode measures. */
export const checkRun = (inputs: Inputs): CaseSpec[] => checkPairedRun(inputs).map(p => p.head)

/**
 * `checkPairedRun`, then what costs a round trip: Docker under `engine: auto` (limits, image-only
 * services), and the history's directory or repository: its names, then whether it answers. Each
 * stage checks what it owns; the error names the input.
 * Returns every case with its base (the head itself outside paired mode).
 */
export async function preflight(inputs: Inputs, history: HistoryTarget = {}): Promise<CasePair[]> {
  const cases = checkPairedRun(inputs)
  await checkAutoEngine(
    engineSettings(inputs),
    cases.flatMap(p => [p.head, p.base])
  )
  await checkHistory(history)
  return cases
}
