import { randomUUID } from 'node:crypto'
import * as path from 'node:path'
import type { Clone } from './clone'
import { HistoryError } from './errors'
import { encodeSegment, entryPath } from '../site/layout'
import { pendingPrefix } from './ref-names'
import { serializeEntry } from './schema'
import { parseEntry } from './read'
import type { HistoryEntry } from './schema'
import { flushObjects, readBlobs, writeBlob, writeTree } from './tree'

/**
 * Pending entries: a writer whose push to the history branch was rejected (another writer pushed
 * first) parks its entries on a ref of its own, `refs/gnes-bench/pending/<branch>/<uuid>`: a root
 * commit whose tree lists the entry files by name, nothing else. No other writer ever pushes that
 * ref, so the push cannot be rejected and the entries are in the remote after one push. Any
 * writer then folds every pending ref into the branch in one commit, deleting the refs it folded
 * in the same atomic push; a writer is done when its entries are on the branch, whoever folded
 * them. Readers count pending entries too, so none is invisible while it waits.
 */
/** One pending ref: its commit, and its entries with the blob each is stored in. */
export interface Pending {
  ref: string
  oid: string
  entries: { entry: HistoryEntry; blob: string }[]
}

/**
 * Writes `entries` as a pending commit and pushes it to a new pending ref of `branch`. Returns the
 * ref and each entry's blob (the same bytes an append writes, so folding reuses the blobs).
 */
export async function pushPending(
  clone: Clone,
  branch: string,
  entries: HistoryEntry[],
  message: string
): Promise<{ ref: string; blobs: Map<string, string> }> {
  if (entries.length === 0) throw new Error('internal error: nothing to park')
  const { git } = clone
  const blobs = new Map<string, string>()
  for (const e of entries) blobs.set(e.id, await writeBlob(git, serializeEntry(e)))
  const root = writeTree(
    git,
    entries.map(e => ({
      mode: '100644',
      type: 'blob',
      oid: blobs.get(e.id)!,
      name: `${encodeSegment(e.id)}.json`
    }))
  )
  await flushObjects(git)
  const commit = (await git(['commit-tree', root, '-m', `pending: ${message}`])).trim()
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

/**
 * The entries of pending refs (`listPending`), validated as stored entries are: a pending entry
 * that does not parse stops the run, naming its ref.
 */
export async function readPending(clone: Clone, listed: Map<string, string>): Promise<Pending[]> {
  const { git } = clone
  const refs = [...listed].map(([ref, oid]) => ({ ref, oid }))
  if (refs.length === 0) return []
  // Every pending commit's files in one process: a root commit's diff lists its whole tree.
  const raw = await git([
    'log',
    '--no-walk=unsorted',
    '--root',
    '--raw',
    '--no-abbrev',
    '--no-renames',
    '-z',
    '--format=%x01%H',
    ...refs.map(r => r.oid)
  ])
  const files = new Map<string, { name: string; blob: string }[]>()
  for (const chunk of raw.split('\x01').filter(Boolean)) {
    const [head, ...rest] = chunk.split('\0')
    const commit = head.trim()
    const list: { name: string; blob: string }[] = []
    for (let i = 0; i + 1 < rest.length; i += 2) {
      const meta = rest[i].trim().split(' ')
      if (meta.length < 5) continue
      list.push({ blob: meta[3], name: rest[i + 1] })
    }
    files.set(commit, list)
  }
  const blobs = [...files.values()].flat().map(f => f.blob)
  await clone.fetchObjects(blobs)
  const texts = await readBlobs(git, blobs)
  return refs.map(({ ref, oid }) => ({
    ref,
    oid,
    entries: (files.get(oid) ?? []).map(({ name, blob }) => {
      const label = `${ref}:${name}`
      const entry = parseEntry(label, texts.get(blob)!)
      if (`${encodeSegment(entry.id)}.json` !== name) {
        throw new HistoryError(
          label,
          `holds entry '${entry.id}', which belongs at ${path.posix.basename(entryPath(entry))}`
        )
      }
      return { entry, blob }
    })
  }))
}
