import type { HistoryEntry } from './schema'

/** One case as the report needs it: its newest entries, not the whole history. */
export interface CaseView {
  id: string
  /**
   * At least the case's newest `Render.recent` entries (all when it has fewer), in any order. On
   * a branch they are the index's summaries: `samples` null and `runs` empty.
   */
  recent: HistoryEntry[]
  total: number
  /** Months the index lists entries in, newest first. */
  months: string[]
}

/**
 * What a write asks of the render stage, so README, charts and dashboard land in the same commit
 * as the entries. An append on a branch calls `report` and `mergeMonthData` only, with entry
 * summaries: their inputs do not grow with the history. `full` renders from the whole history (a
 * plain directory, a prune, the first append of this version to an older branch).
 */
export interface Render {
  /** How many of each case's newest entries `report` needs. */
  recent: number
  /** README, charts and the dashboard's pages and case list, into `dir`. */
  report(dir: string, cases: CaseView[]): Promise<void>
  /** Path of the dashboard's data file of a case and month, relative to the history directory. */
  monthDataPath(caseId: string, month: string): string
  /**
   * That file's text with `added` merged into its `previous` text (null when it is new). An
   * append on a branch passes null and the month's every entry summary, so it fetches no data.
   */
  mergeMonthData(
    file: string,
    caseId: string,
    month: string,
    previous: string | null,
    added: HistoryEntry[]
  ): string
  /** Everything, from the whole history, into `dir`. */
  full(dir: string, all: HistoryEntry[]): Promise<void>
}
