import { randomUUID } from 'node:crypto'
import type { Clone } from './clone'
import { pendingPrefix } from './ref-names'
import { commitTree, readBlobs, writeBlob, writeTree } from './tree'

/**
 * Pending refs: a writer whose push to the branch was rejected (another writer pushed first)
 * parks its files on a ref of its own, `refs/gnes-bench/pending/<branch>/<dir>/<uuid>`: a root
 * commit whose tree lists the files by name, nothing else. No other writer ever pushes that ref,
 * so the push cannot be rejected and the files are in the remote after one push. Any writer then
 * folds every pending ref into the branch in one commit, deleting the refs it folded in the same
 * atomic push (`Clone.push` with `fold`). Readers may count pending files too.
 */

/** One pending ref: its commit, and its files with the blob and text of each. */
export interface PendingFiles {
  ref: string
  oid: string
  files: { name: string; blob: string; text: string }[]
}

/**
 * Writes `files` (name → bytes) as a pending commit and pushes it to a new pending ref of
 * `branch`. Returns the ref and each file's blob (folding reuses them).
 */
export async function pushPending(
  clone: Clone,
  branch: string,
  files: Map<string, string | Buffer>,
  message: string
): Promise<{ ref: string; blobs: Map<string, string> }> {
  if (files.size === 0) throw new Error('internal error: nothing to park')
  const { git } = clone
  const blobs = new Map<string, string>()
  for (const [name, bytes] of files) blobs.set(name, await writeBlob(git, bytes))
  const items = [...blobs].map(([name, oid]) => ({
    mode: '100644',
    type: 'blob' as const,
    oid,
    name
  }))
  const commit = await commitTree(git, writeTree(git, items), null, `pending: ${message}`)
  const ref = `${pendingPrefix(branch, clone.dir)}${randomUUID()}`
  await git(['push', '-q', '--porcelain', '--', clone.repo, `${commit}:${ref}`])
  return { ref, blobs }
}

/** The pending refs fetched with the tip (`Clone.fetchTip`): ref name → the commit it holds. */
export async function listPending(clone: Clone, branch: string): Promise<Map<string, string>> {
  const prefix = pendingPrefix(branch, clone.dir)
  const lines = await clone.git(['for-each-ref', '--format=%(objectname) %(refname)', prefix])
  return new Map(
    lines
      .split('\n')
      .filter(Boolean)
      .map(line => {
        const [oid, ref] = line.split(' ')
        return [ref, oid] as [string, string]
      })
  )
}

/** File name → blob of each commit's tree, by commit: one process for all of them. */
async function filesOf(
  clone: Clone,
  commits: string[]
): Promise<Map<string, { name: string; blob: string }[]>> {
  // A root commit's diff lists its whole tree.
  const raw = await clone.git([
    'log',
    '--no-walk=unsorted',
    '--root',
    '--raw',
    '--no-abbrev',
    '--no-renames',
    '-z',
    '--format=%x01%H',
    ...commits
  ])
  const files = new Map<string, { name: string; blob: string }[]>()
  for (const chunk of raw.split('\x01').filter(Boolean)) {
    const [head, ...rest] = chunk.split('\0')
    const list: { name: string; blob: string }[] = []
    for (let i = 0; i + 1 < rest.length; i += 2) {
      const meta = rest[i].trim().split(' ')
      if (meta.length < 5) continue
      list.push({ blob: meta[3], name: rest[i + 1] })
    }
    files.set(head.trim(), list)
  }
  return files
}

/** The files of pending refs (`listPending`), their blobs fetched in one round trip. */
export async function readPendingFiles(
  clone: Clone,
  listed: Map<string, string>
): Promise<PendingFiles[]> {
  const refs = [...listed].map(([ref, oid]) => ({ ref, oid }))
  if (refs.length === 0) return []
  const files = await filesOf(
    clone,
    refs.map(r => r.oid)
  )
  const blobs = [...files.values()].flat().map(f => f.blob)
  await clone.fetchObjects(blobs)
  const texts = await readBlobs(clone.git, blobs)
  return refs.map(({ ref, oid }) => ({
    ref,
    oid,
    files: (files.get(oid) ?? []).map(f => ({ ...f, text: texts.get(f.blob)! }))
  }))
}
