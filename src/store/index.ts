/**
 * The git object store: one directory of a branch, read and written without a work tree where it
 * can be. It knows git, not what the files hold. Its interface: a clone of the branch fetched by
 * depth or by id (`withClone`), trees read (`lsTree`, `itemAt`, `itemsAt`) and blobs read
 * (`readBlobs`), blobs and trees written and edited (`writeBlob`, `writeTree`, `editTree`), a
 * commit (`commitTree`), and a push retried while other writers win (`pushLoop`), with pending
 * refs for files that wait to be folded in (`pushPending`, `listPending`, `readPendingFiles`).
 */
export { fetchTreesOn, itemsAt } from './fetch-trees'
export { withClone, type Clone, type StoreLocation } from './clone'
export {
  checkRepository,
  GitError,
  gitIn,
  lsRemoteHeads,
  redactUrl,
  type Git,
  type GitIdentity
} from './git'
export { listPending, pushPending, readPendingFiles, type PendingFiles } from './pending'
export { backoffMs, gitReason, pushLoop, type PushTarget } from './push-loop'
export { isRefName, knownRef, pendingPrefix, refSegment } from './ref-names'
export {
  commitTree,
  editTree,
  filesUnder,
  flushObjects,
  itemAt,
  lsTree,
  lsTrees,
  readBlobs,
  treeAt,
  treeOf,
  writeBlob,
  writeTree,
  type TreeChanges,
  type TreeItem
} from './tree'
