import type { Profile } from '../profile/definition'
import type { HistoryEntry } from '../history/schema'
import type { TrendStep } from '../trend/series'
import type { ChartSpec } from './charts'

/** Entries of one case and profile, newest first, with what the README and dashboard show of them. */
export interface Series {
  caseId: string
  caseName: string
  key: string
  /** The newest entry's profile (a sweep's rates change from run to run). */
  profile: Profile
  /** Entries of the series; null when only the case's newest entries were read. */
  total: number | null
  /** Whether the series holds entries beyond `shown`. */
  truncated: boolean
  /** The newest `maxEntries`, which the README and the static charts show. */
  shown: HistoryEntry[]
  metrics: string[]
  /**
   * Change points of every metric among the entries shown (the newest maxEntries), newest first:
   * a whole-history render and an append search the same entries, and a long history costs no more.
   */
  steps: TrendStep[]
  charts: ChartSpec[]
  /** The case's months holding entries (newest first) and its entries of every profile. */
  caseMonths: string[]
  caseTotal: number
}
