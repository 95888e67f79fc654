import type { Git } from './git'

/**
 * Git trees edited without a work tree or an index: an append reads and rewrites only the trees on
 * the paths it changes, so it never needs the rest of the branch (see docs/history.md, "Writing").
 */
export interface TreeItem {
  mode: string
  type: 'blob' | 'tree'
  oid: string
  name: string
}

/**
 * Trees listed in this process, by id: a tree's id names its content, so a listing never goes
 * stale, and an append that walks the same trees for several paths runs `ls-tree` once for each.
 */
const listed = new Map<string, TreeItem[]>()
const LISTED_MAX = 20_000

/** A tree's items; the tree must be in the local object store (a partial clone never lazy-fetches here). */
export async function lsTree(git: Git, oid: string): Promise<TreeItem[]> {
  const known = listed.get(oid)
  if (known) return known
  const items = (await git(['ls-tree', '-z', '--full-tree', oid]))
    .split('\0')
    .filter(Boolean)
    .map(line => {
      const tab = line.indexOf('\t')
      const [mode, type, id] = line.slice(0, tab).split(' ')
      return { mode, type: type as TreeItem['type'], oid: id, name: line.slice(tab + 1) }
    })
  if (listed.size >= LISTED_MAX) listed.clear()
  listed.set(oid, items)
  return items
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

/** Writes a blob; returns its id. */
export const writeBlob = async (git: Git, text: string): Promise<string> =>
  (await git(['hash-object', '-w', '--stdin'], text)).trim()

/** Path → blob id to set, `{ tree }` to set a directory's tree, or null to delete. */
export type TreeChanges = Map<string, string | { tree: string } | null>

/**
 * The tree `base` with `changes` applied; null when nothing is left. Only trees on the changed
 * paths are read, and `--missing` keeps mktree from looking at the (possibly absent) others.
 */
export async function editTree(
  git: Git,
  base: string | null,
  changes: TreeChanges
): Promise<string | null> {
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
  for (const [dir, inner] of below) {
    const current = items.get(dir)
    if (current && current.type !== 'tree') {
      throw new Error(`'${dir}' is a file on the branch, where the history needs a directory`)
    }
    const tree = await editTree(git, current?.oid ?? null, inner)
    if (tree) items.set(dir, { mode: '040000', type: 'tree', oid: tree, name: dir })
    else items.delete(dir)
  }
  if (items.size === 0) return null
  const input = [...items.values()].map(i => `${i.mode} ${i.type} ${i.oid}\t${i.name}\0`).join('')
  return (await git(['mktree', '-z', '--missing'], input)).trim()
}

/** Blob contents by id, read in one `cat-file --batch`; every blob must be local. */
export async function readBlobs(git: Git, oids: string[]): Promise<Map<string, string>> {
  const unique = [...new Set(oids)]
  const out = new Map<string, string>()
  if (unique.length === 0) return out
  const raw = Buffer.from(await git(['cat-file', '--batch'], `${unique.join('\n')}\n`), 'utf8')
  let at = 0
  for (const oid of unique) {
    const eol = raw.indexOf(0x0a, at)
    const [, type, size] = raw.subarray(at, eol).toString('utf8').split(' ')
    if (type !== 'blob') throw new Error(`object ${oid} is not a blob`)
    const start = eol + 1
    out.set(oid, raw.subarray(start, start + Number(size)).toString('utf8'))
    at = start + Number(size) + 1
  }
  return out
}
