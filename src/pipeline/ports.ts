import type { Engine } from '../engine/types'
import type { HistoryEntry } from '../history'
import type { Log } from '../log'
import type { ReportLinks } from '../report'
import type { CaseVerdict } from '../judge/verdict'
import type { ComparedCommits } from '../result/compared-commits'
import type { GitMeta, Result } from '../result/schema'
import type { HistoryLocation } from './location'
import type { RecordedRun } from './record'
import type { JudgedThresholds } from './thresholds'

/*
 * The ports of the pipeline's use cases: what each front end (the action, the CLI) gives a run or
 * a recording of a result file, and how it shows what they did.
 */

/** A pull request judged against the history: the action's; the CLI has none. */
export interface PullRequestBaseline {
  baseRef: string | null
  /** The history's entries, read when the head's result is there. */
  history(): Promise<HistoryEntry[]>
  /**
   * The commit the pull request is compared with: its test merge's first parent, or its head's
   * merge-base (`ComparedCommits`); the event's base sha when the workspace tells neither.
   */
  baseSha: string | null
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

/** What a front end gives a recording, and how it shows what was recorded. */
export interface RecordPorts {
  log: Log
  /** The event that started the run (null outside Actions): whether `record: auto` records. */
  event: string | null
  /** The history the run reads or writes. */
  history: HistoryLocation
  links: ReportLinks
  /** The head's result, written to `file` (or read from it, when a result file is recorded). */
  written(result: Result, file: string): Promise<void>
  /**
   * The verdict, or null when the run is judged by nothing (neither paired nor a pull request),
   * and the thresholds judged on the run (none for a recorded result file), whose section a
   * verdict's report holds.
   */
  judged(verdict: RunVerdict | null, result: Result, thresholds?: JudgedThresholds): Promise<void>
  /** Records the result through `append` at a target of the front end's; null when it does not record. */
  record(append: Append | null): Promise<void>
}

/** What a front end gives the run, and how it shows what the run did. */
export interface RunPorts extends RecordPorts {
  /** The commit benchmarked. */
  git: GitMeta
  pullRequest: PullRequestBaseline | null
  /** A pull request's two commits, named in a paired run's report; null on other events. */
  compared?: ComparedCommits | null
  /** The engine, where the front end chooses it before the suite; otherwise the suite does. */
  chooseEngine?(suiteId: string): Promise<Engine>
  /** Takes the run id of every Docker-based engine (the action's post: step removes them). */
  keepRunId?: (runId: string) => void
}
