import { createHash } from 'node:crypto'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import type { Git } from './git'

/**
 * Git trees edited without a work tree or an index: a write reads and rewrites only the trees on
 * the paths it changes, so it never needs the rest of the branch (see docs/history.md, "Writing").
 *
 * Git processes are what an append spends most of its time on, so objects are hashed here and
 * written to the repository in one `hash-object` per type (`flushObjects`), which checks every
 * id against git's own; objects are read many at a time through one `cat-file --batch` process.
 */
export interface TreeItem {
  mode: string
  type: 'blob' | 'tree'
  oid: string
  name: string
}

/**
 * Trees listed in this process, by id: a tree's id names its content, so a listing never goes
 * stale, and an append that walks the same trees for several paths reads each once.
 */
const listed = new Map<string, TreeItem[]>()
const LISTED_MAX = 20_000

/** What one work repository holds beyond what git was asked for: objects not yet written. */
interface Store {
  /** Object id → type and content, hashed here and written by the next `flushObjects`. */
  queued: Map<string, { type: 'blob' | 'tree'; body: Buffer }>
  /** Objects known to be in the repository (listed, read, fetched by id or written). */
  local: Set<string>
}
const stores = new WeakMap<Git, Store>()
const store = (git: Git): Store => {
  let s = stores.get(git)
  if (!s) stores.set(git, (s = { queued: new Map(), local: new Set() }))
  return s
}

/** Forgets what the repository held, queued objects too: it was emptied and made anew. */
export const forgetObjects = (git: Git): void => {
  stores.delete(git)
}

/** Objects of this repository known to be present or queued: a fetch by id can skip them. */
export const isKnown = (git: Git, oid: string): boolean =>
  store(git).local.has(oid) || store(git).queued.has(oid)

/** Marks objects as present (fetched by id). */
export const markLocal = (git: Git, oids: Iterable<string>): void => {
  for (const oid of oids) store(git).local.add(oid)
}

const remember = (oid: string, items: TreeItem[]): void => {
  if (listed.size >= LISTED_MAX) listed.clear()
  listed.set(oid, items)
}

/** A raw tree object's items (`<mode> <name>\0<20-byte id>`…), modes as ls-tree prints them. */
function parseTree(body: Buffer): TreeItem[] {
  const items: TreeItem[] = []
  for (let at = 0; at < body.length;) {
    const space = body.indexOf(0x20, at)
    const nul = body.indexOf(0, space)
    const raw = body.subarray(at, space).toString('latin1')
    const mode = raw.padStart(6, '0')
    const type = raw === '40000' ? 'tree' : raw === '160000' ? 'commit' : 'blob'
    const name = body.subarray(space + 1, nul).toString('utf8')
    const oid = body.subarray(nul + 1, nul + 21).toString('hex')
    items.push({ mode, type: type as TreeItem['type'], oid, name })
    at = nul + 21
  }
  return items
}

/**
 * Lists many trees at once (one request to the repository's `cat-file --batch` for those not
 * listed yet); each must be in the local object store or queued (a partial clone never
 * lazy-fetches here).
 */
export async function lsTrees(git: Git, oids: string[]): Promise<void> {
  const s = store(git)
  const unread: string[] = []
  for (const oid of new Set(oids)) {
    const q = s.queued.get(oid)
    if (listed.has(oid)) continue
    if (q) remember(oid, parseTree(q.body))
    else unread.push(oid)
  }
  for (const { oid, type, body } of await git.read(unread)) {
    if (type !== 'tree') throw new Error(`object ${oid} is not a tree (${type})`)
    remember(oid, parseTree(body))
    s.local.add(oid)
  }
}

/** The tree `commit` points to (the commit must be local). */
export const treeOf = async (git: Git, commit: string): Promise<string> =>
  (await git(['rev-parse', `${commit}^{tree}`])).trim()

/** A tree's items; the tree must be local or queued. */
export async function lsTree(git: Git, oid: string): Promise<TreeItem[]> {
  if (!listed.has(oid)) await lsTrees(git, [oid])
  return listed.get(oid)!
}

/** The item at `path` (slash-separated) under `root`, or null; every tree on the way must be local. */
export async function itemAt(git: Git, root: string, path: string): Promise<TreeItem | null> {
  let item: TreeItem | null = { mode: '040000', type: 'tree', oid: root, name: '' }
  for (const name of path.split('/').filter(Boolean)) {
    if (item?.type !== 'tree') return null
    item = (await lsTree(git, item.oid)).find(i => i.name === name) ?? null
  }
  return item
}

/** The tree at the directory `dir` (`.`: `root` itself) below `root`, or null when there is none. */
export async function treeAt(git: Git, root: string, dir: string): Promise<string | null> {
  const item = dir === '.' ? { type: 'tree', oid: root } : await itemAt(git, root, dir)
  return item?.type === 'tree' ? item.oid : null
}

/** Hashes an object as git does and queues it for `flushObjects`; returns its id. */
function queue(git: Git, type: 'blob' | 'tree', body: Buffer): string {
  const oid = createHash('sha1').update(`${type} ${body.length}\0`).update(body).digest('hex')
  const s = store(git)
  if (!s.local.has(oid)) s.queued.set(oid, { type, body })
  return oid
}

/** Queues a blob (written by the next `flushObjects`); returns its id. */
export const writeBlob = async (git: Git, content: string | Buffer): Promise<string> =>
  queue(git, 'blob', typeof content === 'string' ? Buffer.from(content, 'utf8') : content)

/** Git's order of tree items: by name, a tree's name compared as if it ended with `/`. */
const sortKey = (i: TreeItem): Buffer => Buffer.from(i.type === 'tree' ? `${i.name}/` : i.name)

/** Queues the tree of `items`; returns its id. Its listing is known without reading it back. */
export function writeTree(git: Git, items: TreeItem[]): string {
  const sorted = [...items].sort((a, b) => Buffer.compare(sortKey(a), sortKey(b)))
  const body = Buffer.concat(
    sorted.map(i =>
      Buffer.concat([
        Buffer.from(`${i.mode.replace(/^0+/, '')} ${i.name}\0`),
        Buffer.from(i.oid, 'hex')
      ])
    )
  )
  const oid = queue(git, 'tree', body)
  remember(oid, sorted)
  return oid
}

/**
 * Writes every queued object to the repository: one `hash-object` per type, which validates each
 * tree's format. An id git computes differently from the one hashed here is an error: nothing is
 * committed that git would not have written itself.
 */
export async function flushObjects(git: Git): Promise<void> {
  const s = store(git)
  if (s.queued.size === 0) return
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'gnes-objects-'))
  try {
    for (const type of ['blob', 'tree'] as const) {
      const objects = [...s.queued].filter(([, q]) => q.type === type)
      if (objects.length === 0) continue
      const files = objects.map(([oid, q]) => {
        const file = path.join(scratch, oid)
        fs.writeFileSync(file, q.body)
        return file
      })
      const args = ['hash-object', '-w', '--no-filters', '-t', type, '--stdin-paths']
      const written = (await git(args, `${files.join('\n')}\n`)).trim().split('\n')
      objects.forEach(([oid], i) => {
        if (written[i] !== oid) {
          throw new Error(`internal error: git wrote ${type} ${written[i]} where ${oid} was hashed`)
        }
        s.queued.delete(oid)
        s.local.add(oid)
      })
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true })
  }
}

/**
 * Writes every queued object, then commits `tree` on `parent` (null: a root commit); returns the
 * commit's id.
 */
export async function commitTree(
  git: Git,
  tree: string,
  parent: string | null,
  message: string
): Promise<string> {
  await flushObjects(git)
  return (await git(['commit-tree', tree, ...(parent ? ['-p', parent] : []), '-m', message])).trim()
}

/** Every file under `paths` (directories on the branch) in the tree `root`, as paths on the branch. */
export async function filesUnder(git: Git, root: string, paths: string[]): Promise<string[]> {
  const listed = await git(['ls-tree', '-r', '-z', '--name-only', root, '--', ...paths])
  return listed.split('\0').filter(Boolean)
}

/** Path → blob id to set, `{ tree }` to set a directory's tree, or null to delete. */
export type TreeChanges = Map<string, string | { tree: string } | null>

/**
 * The tree `base` with `changes` applied; null when nothing is left. Only trees on the changed
 * paths are read (each level's in one batch); the new trees are queued, not yet written.
 */
export async function editTree(
  git: Git,
  base: string | null,
  changes: TreeChanges
): Promise<string | null> {
  await lsTrees(git, base ? [base] : [])
  return edit(git, base, changes)
}

async function edit(git: Git, base: string | null, changes: TreeChanges): Promise<string | null> {
  const items = new Map((base ? await lsTree(git, base) : []).map(i => [i.name, i]))
  const below = new Map<string, TreeChanges>()
  for (const [file, oid] of changes) {
    const slash = file.indexOf('/')
    if (slash < 0) {
      if (typeof oid === 'string')
        items.set(file, { mode: '100644', type: 'blob', oid, name: file })
      else if (oid) items.set(file, { mode: '040000', type: 'tree', oid: oid.tree, name: file })
      else items.delete(file)
      continue
    }
    const dir = file.slice(0, slash)
    if (!below.has(dir)) below.set(dir, new Map())
    below.get(dir)!.set(file.slice(slash + 1), oid)
  }
  for (const [dir, current] of [...below.keys()].map(d => [d, items.get(d)] as const)) {
    if (current && current.type !== 'tree') {
      throw new Error(`'${dir}' is a file on the branch, where the history needs a directory`)
    }
  }
  // The subtrees this level descends into, listed in one batch.
  await lsTrees(
    git,
    [...below.keys()].map(d => items.get(d)?.oid).filter((o): o is string => !!o)
  )
  for (const [dir, inner] of below) {
    const tree = await edit(git, items.get(dir)?.oid ?? null, inner)
    if (tree) items.set(dir, { mode: '040000', type: 'tree', oid: tree, name: dir })
    else items.delete(dir)
  }
  if (items.size === 0) return null
  return writeTree(git, [...items.values()])
}

/** Blob contents by id, read in one request; every blob must be local or queued. */
export async function readBlobs(git: Git, oids: string[]): Promise<Map<string, string>> {
  const unique = [...new Set(oids)]
  const out = new Map<string, string>()
  const s = store(git)
  const unread = unique.filter(oid => {
    const q = s.queued.get(oid)
    if (q) out.set(oid, q.body.toString('utf8'))
    return !q
  })
  for (const { oid, type, body } of await git.read(unread)) {
    if (type !== 'blob') throw new Error(`object ${oid} is not a blob`)
    out.set(oid, body.toString('utf8'))
    s.local.add(oid)
  }
  return out
}
