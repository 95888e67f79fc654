import { HistoryError, describeIssues } from './errors'
import { HistoryEntrySchema, type HistoryEntry } from './schema'

interface AppendPlan {
  /** Entries not yet stored, in the order given. */
  add: HistoryEntry[]
  /** Ids already stored: appending is idempotent, a stored entry is never replaced. */
  present: string[]
}

/** Validates the incoming entries and splits them by whether they are stored already. Pure. */
export function planAppend(
  stored: (entry: HistoryEntry) => boolean,
  incoming: HistoryEntry[]
): AppendPlan {
  const batch = new Set<string>()
  const plan: AppendPlan = { add: [], present: [] }
  for (const entry of incoming) {
    const parsed = HistoryEntrySchema.safeParse(entry)
    if (!parsed.success) {
      throw new HistoryError(`new entry '${entry.id}'`, `invalid: ${describeIssues(parsed.error)}`)
    }
    if (batch.has(entry.id)) throw new HistoryError(`new entry '${entry.id}'`, 'given twice')
    batch.add(entry.id)
    if (stored(parsed.data)) plan.present.push(entry.id)
    else plan.add.push(parsed.data)
  }
  return plan
}

export interface PruneRule {
  /** Keep the newest N entries of each case. */
  keep?: number
  /** Delete entries evaluated before this instant. */
  before?: Date
  /** Only consider these cases; all when absent. */
  cases?: string[]
}

/**
 * Entries the rule deletes. With both `keep` and `before`, an entry goes only when it is older than
 * `before` and not among its case's newest `keep`: combining limits never deletes more. Pure.
 */
export function selectPrune(entries: HistoryEntry[], rule: PruneRule): HistoryEntry[] {
  if (rule.keep === undefined && rule.before === undefined) {
    throw new Error('prune needs --keep or --before: stored entries are only deleted on purpose')
  }
  const unknown = (rule.cases ?? []).filter(id => !entries.some(e => e.caseId === id))
  if (unknown.length > 0) {
    const there = [...new Set(entries.map(e => e.caseId))].sort().join(', ') || 'none'
    throw new Error(
      `--case ${unknown.join(',')}: the history holds no entries of ${unknown.length === 1 ? 'that case' : 'those cases'} (its cases: ${there}); nothing was deleted`
    )
  }
  const newestFirst = [...entries].sort(
    (a, b) => Date.parse(b.timestampEval) - Date.parse(a.timestampEval) || (a.id < b.id ? 1 : -1)
  )
  const rank = new Map<string, number>()
  const perCase = new Map<string, number>()
  for (const e of newestFirst) {
    const n = perCase.get(e.caseId) ?? 0
    rank.set(e.id, n)
    perCase.set(e.caseId, n + 1)
  }
  return entries.filter(e => {
    if (rule.cases && !rule.cases.includes(e.caseId)) return false
    const beyondKeep = rule.keep === undefined || rank.get(e.id)! >= rule.keep
    const tooOld = rule.before === undefined || Date.parse(e.timestampEval) < rule.before.getTime()
    return beyondKeep && tooOld
  })
}

/** `history: add cases 1,2 of 1a2b3c4 (refs/heads/main)`: names the case set and the commit. */
export function appendMessage(entries: HistoryEntry[]): string {
  const cases = [...new Set(entries.map(e => e.caseId))].sort().join(',')
  const shas = [...new Set(entries.map(e => e.commit.sha?.slice(0, 7) ?? 'no commit'))]
  const refs = [...new Set(entries.map(e => e.commit.ref).filter((r): r is string => !!r))]
  const of = shas.length === 1 ? shas[0] : `${shas.length} commits`
  const origin = entries.every(e => e.origin === 'legacy') ? 'legacy ' : ''
  return `history: add ${origin}cases ${cases} of ${of}${refs.length === 1 ? ` (${refs[0]})` : ''} [${entries.length} ${entries.length === 1 ? 'entry' : 'entries'}]`
}
