import { profileKey, profileLabel, type Profile } from '../profile/definition'
import type { HistoryEntry } from '../history/schema'
import type { Load } from '../result/schema'
import { traitsOf } from '../profile/traits'

export interface BaselineQuery {
  caseId: string
  profile: Profile
  load: Pick<Load, 'docs' | 'batchSize' | 'docBytes'>
  engine: HistoryEntry['engine']
  /** Whether the suite held every CPU awake: wake-ups then cost less, so it is a condition too. */
  cpusAwake: boolean
  /** The pull request's base branch (`main` or `refs/heads/main`); null: any branch. */
  baseRef: string | null
  /** Merge-base of the PR head and its base branch, when the caller knows it. */
  mergeBaseSha: string | null
}

export type BaselineChoice =
  | { entry: HistoryEntry; reason: 'merge-base' | 'latest-on-base' | 'latest' }
  | { entry: null; reason: string }

const branchName = (ref: string): string => ref.replace(/^refs\/heads\//, '')

/** Full and abbreviated SHAs name the same commit (an abbreviation has at least 7 digits). */
function sameCommit(a: string, b: string): boolean {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()]
  return Math.min(x.length, y.length) >= 7 && (x.startsWith(y) || y.startsWith(x))
}

const newest = (entries: HistoryEntry[]): HistoryEntry =>
  entries.reduce((a, b) => (Date.parse(b.timestampEval) > Date.parse(a.timestampEval) ? b : a))

/**
 * The entries a case of a pull request could be measured against: of the same case, load profile
 * (and rate), engine, CPU wake-up setting and request (batch, document size; a burst's documents
 * too); the number of runs may differ because the verdict works on per-run medians.
 * Pull-request results are never a baseline: they measure unmerged code.
 */
function comparableEntries(entries: readonly HistoryEntry[], q: BaselineQuery): HistoryEntry[] {
  const key = profileKey(q.profile)
  return entries.filter(
    e =>
      e.caseId === q.caseId &&
      profileKey(e.profile) === key &&
      e.engine === q.engine &&
      (e.cpusAwake ?? false) === q.cpusAwake &&
      (traitsOf(q.profile).runSize !== 'docs' || e.load.docs === q.load.docs) &&
      e.load.batchSize === q.load.batchSize &&
      e.load.docBytes === q.load.docBytes &&
      !e.commit.event?.startsWith('pull_request')
  )
}

const onBranch = (entries: HistoryEntry[], baseRef: string | null): HistoryEntry[] =>
  baseRef === null
    ? entries
    : entries.filter(e => e.commit.ref !== null && branchName(e.commit.ref) === branchName(baseRef))

/**
 * The comparable entries recorded on the base branch (any branch when the query names none),
 * newest first: separate jobs of the series the baseline belongs to, whose spread is the drift
 * between jobs (`./drift`).
 */
export const baseSeries = (entries: readonly HistoryEntry[], q: BaselineQuery): HistoryEntry[] =>
  onBranch(comparableEntries(entries, q), q.baseRef).sort(
    (a, b) => Date.parse(b.timestampEval) - Date.parse(a.timestampEval)
  )

/**
 * The history entry a pull request is measured against (of the comparable entries): the
 * merge-base commit's entry when the history has one, else the newest entry recorded on the base
 * branch.
 */
export function selectBaseline(entries: readonly HistoryEntry[], q: BaselineQuery): BaselineChoice {
  const comparable = comparableEntries(entries, q)
  if (comparable.length === 0) {
    const sameCase = entries.some(e => e.caseId === q.caseId)
    const docs = traitsOf(q.profile).runSize === 'docs' ? `${q.load.docs} docs × ` : 'requests of '
    return {
      entry: null,
      reason: sameCase
        ? `no history entry of case ${q.caseId} under ${profileLabel(q.profile)} with engine ${q.engine}, CPUs ${q.cpusAwake ? 'held awake' : 'not held awake'} and ${docs}${q.load.docBytes} B, batch ${q.load.batchSize}`
        : `no history entry of case ${q.caseId}`
    }
  }
  const onBase = onBranch(comparable, q.baseRef)
  if (q.mergeBaseSha) {
    const atMergeBase = comparable.filter(
      e => e.commit.sha !== null && sameCommit(e.commit.sha, q.mergeBaseSha!)
    )
    if (atMergeBase.length > 0) {
      // Prefer the branch's own record of that commit over, say, a release tag pointing at it.
      const preferred = atMergeBase.filter(e => onBase.includes(e))
      return { entry: newest(preferred.length ? preferred : atMergeBase), reason: 'merge-base' }
    }
  }
  if (onBase.length === 0) {
    return {
      entry: null,
      reason: `no comparable history entry of case ${q.caseId} on branch ${branchName(q.baseRef!)}`
    }
  }
  return { entry: newest(onBase), reason: q.baseRef === null ? 'latest' : 'latest-on-base' }
}
