import * as path from 'node:path'
import { HistoryError } from './errors'
import { encodeSegment, entryPath } from '../site/layout'
import { parseEntry } from './read'
import { serializeEntry, type HistoryEntry } from './schema'
import { pushPending, readPendingFiles, type Clone } from '../store'

/**
 * Entries parked on pending refs (store/pending.ts): a writer whose push to the history branch
 * was rejected parks its entries, one file per entry named by its id, until any writer folds them
 * into the branch; a writer is done when its entries are on the branch, whoever folded them.
 * Readers count pending entries too, so none is invisible while it waits.
 */

/** One pending ref: its commit, and its entries with the blob each is stored in. */
export interface Pending {
  ref: string
  oid: string
  entries: { entry: HistoryEntry; blob: string }[]
}

const fileName = (id: string): string => `${encodeSegment(id)}.json`

/**
 * Parks `entries` on a new pending ref of `branch`. Returns the ref and each entry's blob by id
 * (the same bytes an append writes, so folding reuses the blobs).
 */
export async function parkEntries(
  clone: Clone,
  branch: string,
  entries: HistoryEntry[],
  message: string
): Promise<{ ref: string; blobs: Map<string, string> }> {
  const files = new Map(entries.map(e => [fileName(e.id), serializeEntry(e)]))
  const { ref, blobs } = await pushPending(clone, branch, files, message)
  return { ref, blobs: new Map(entries.map(e => [e.id, blobs.get(fileName(e.id))!])) }
}

/**
 * The entries of pending refs (`listPending`), validated as stored entries are: a pending entry
 * that does not parse, or is filed under another id, stops the run, naming its ref.
 */
export async function readPending(clone: Clone, listed: Map<string, string>): Promise<Pending[]> {
  return (await readPendingFiles(clone, listed)).map(({ ref, oid, files }) => ({
    ref,
    oid,
    entries: files.map(({ name, blob, text }) => {
      const label = `${ref}:${name}`
      const entry = parseEntry(label, text)
      if (fileName(entry.id) !== name) {
        throw new HistoryError(
          label,
          `holds entry '${entry.id}', which belongs at ${path.posix.basename(entryPath(entry))}`
        )
      }
      return { entry, blob }
    })
  }))
}
