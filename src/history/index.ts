/** The history stage's public surface: what the action, the CLI and render/report code import. */
export { HISTORY_SCHEMA, HistoryEntrySchema, type HistoryEntry } from './schema'
export { HistoryError } from './errors'
export { entriesFromResult } from './from-result'
export { importLegacy, LEGACY_METRICS } from './legacy'
export { readHistory } from './read'
export { selectPrune, type PruneRule } from './plan'
export { shouldRecord } from './policy'
export { appendToDir, pruneDir, type AppendOutcome, type PruneOutcome } from './dir-store'
export { type CaseView, type Render } from './render-hook'
export {
  appendToBranch,
  checkBranchWritable,
  pruneBranch,
  readBranchHistory,
  type BranchAppend,
  type BranchLocation
} from './branch-store'
