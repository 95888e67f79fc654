import { randomUUID } from 'node:crypto'
import * as path from 'node:path'
import type { Inputs } from '../config/inputs'
import type { Engine } from '../engine/types'
import { shouldRecord, type HistoryEntry } from '../history'
import type { Log } from '../log'
import type { PairedComparison } from '../judge'
import type { CaseVerdict } from '../judge/verdict'
import type { ReportLinks } from '../report'
import type { GitMeta, Result } from '../result/schema'
import { comparePairedRun, compareWithHistory } from './compare'
import type { HistoryLocation } from './location'
import { preflight } from './preflight'
import { recordResult, type RecordedRun } from './record'
import { writeResult } from './result-file'
import { runPairedSuite } from './suite/paired'
import { runSuite } from './suite/run'

/** A pull request judged against the history: the action's; the CLI has none. */
export interface PullRequestBaseline {
  baseRef: string | null
  /** The history's entries, read when the head's result is there. */
  history(): Promise<HistoryEntry[]>
  /** The commit the pull request branched from, for the head commit `head`. */
  mergeBase(head: string | null): Promise<string | null>
}

/** A verdict of the run: its answers, its Markdown report, and a paired run's base result file. */
export interface RunVerdict {
  regression: boolean
  verdicts: CaseVerdict[]
  markdown: string
  base: string | null
}

/**
 * Writes the entries of the run to `target`, reporting a branch store's retries to `log`; says
 * which steps of the series its entries made detectable.
 */
export type Append = (target: HistoryLocation, log?: Log) => Promise<RecordedRun>

/** What a front end gives the run, and how it shows what the run did. */
export interface RunPorts {
  log: Log
  /** The commit benchmarked. */
  git: GitMeta
  /** The event that started the run (null outside Actions): whether `record: auto` records. */
  event: string | null
  /** The history the run reads or writes. */
  history: HistoryLocation
  links: ReportLinks
  pullRequest: PullRequestBaseline | null
  /** The engine, where the front end chooses it before the suite; otherwise the suite does. */
  chooseEngine?(suiteId: string): Promise<Engine>
  /** Takes the run id of every Docker-based engine (the action's post: step removes them). */
  keepRunId?: (runId: string) => void
  /** The head's result, written to `file`. */
  written(result: Result, file: string): Promise<void>
  /** The verdict, or null when the run is judged by nothing (neither paired nor a pull request). */
  judged(verdict: RunVerdict | null, result: Result): Promise<void>
  /** Records the result through `append` at a target of the front end's; null when it does not record. */
  record(append: Append | null): Promise<void>
}

/** Pre-flight's view of the history: checked for writing when the run records. */
function historyTarget(history: HistoryLocation, reads: boolean, writes: boolean) {
  if (history.kind === 'dir') return writes ? { dir: history.dir } : {}
  if (!reads) return {}
  const { repo: url, token, branch, dir, adopt } = history
  return { repository: { url, token, branch, dir, writes, adopt } }
}

/**
 * The run both front ends make: pre-flight, the suite (or a paired run of base and head), the
 * result written, judged (paired, or a pull request against the history) and recorded.
 */
export async function runBenchmark(inputs: Inputs, ports: RunPorts): Promise<void> {
  const { log, git, links } = ports
  const record = shouldRecord(inputs.record, ports.event)
  const paired = inputs.baseline === 'paired'
  // Pull requests in history mode read the history and other events may write it: reach it
  // before the suite. A paired pull request measures its baseline itself.
  const pullRequest = paired ? null : ports.pullRequest
  const pairs = await preflight(
    inputs,
    historyTarget(ports.history, record || pullRequest !== null, record)
  )
  const cases = pairs.map(p => p.head)
  const suiteId = randomUUID()
  const engine = await ports.chooseEngine?.(suiteId)
  const options = { log, suiteId, engine, git, keepRunId: ports.keepRunId }
  const pairedRun = paired ? await runPairedSuite(inputs, { ...options, pairs }) : null
  const result = pairedRun?.head ?? (await runSuite(inputs, { ...options, cases }))
  await ports.written(result, writeResult(result, inputs['out-dir']))

  const threshold = inputs['alert-threshold']
  let comparedPairs: PairedComparison | undefined
  if (pairedRun) {
    // The base is kept for inspection beside the head's result, never recorded: the head's
    // entries record their change against it.
    const base = writeResult(pairedRun.base, path.join(inputs['out-dir'], 'base'))
    const { comparison, markdown } = comparePairedRun(pairedRun, { threshold }, links)
    comparedPairs = comparison
    await ports.judged({ ...comparison, markdown, base }, result)
  } else if (pullRequest) {
    const history = await pullRequest.history()
    const mergeBaseSha = await pullRequest.mergeBase(result.meta.git.sha)
    const { comparison, markdown } = compareWithHistory(
      result,
      history,
      { threshold, baseRef: pullRequest.baseRef, mergeBaseSha },
      links
    )
    await ports.judged({ ...comparison, markdown, base: null }, result)
  } else {
    await ports.judged(null, result)
  }

  await ports.record(
    record
      ? (target, storeLog) =>
          recordResult(result, target, {
            inputs,
            cases,
            repositoryUrl: links.repositoryUrl ?? undefined,
            log: storeLog,
            paired: comparedPairs
          })
      : null
  )
}
