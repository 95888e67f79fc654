import type { Site } from '../site/site'
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
 * as the entries. Each call returns files as a value (paths from site/layout.ts); the store
 * applies them. An append on a branch calls `report` and `monthData` only, with entry summaries:
 * their inputs do not grow with the history. `full` renders from the whole history (a plain
 * directory, a prune, the first append of this version to an older branch).
 */
export interface Render {
  /** How many of each case's newest entries `report` needs. */
  recent: number
  /** README, charts and the dashboard's pages and case list. */
  report(cases: CaseView[]): Promise<Site>
  /**
   * The dashboard data of one case and month (the file at `monthDataPath`), from every entry of
   * it: on a branch the month's summaries, so no data file is fetched and each heals itself.
   */
  monthData(caseId: string, month: string, entries: HistoryEntry[]): Buffer
  /** Everything, from the whole history: a whole site (see `writeSite`). */
  full(all: HistoryEntry[]): Promise<Site>
}
