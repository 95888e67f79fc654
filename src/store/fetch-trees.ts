import type { Clone } from './clone'
import { itemAt, lsTree, lsTrees, type TreeItem } from './tree'

/**
 * Makes the trees on each path below `base` local (not the items at the ends), level by level:
 * one fetch per level for all paths, so they can be listed and rewritten on a partial clone.
 */
export async function fetchTreesOn(
  clone: Clone,
  base: string | null,
  paths: string[]
): Promise<void> {
  if (!base) return
  let level = paths.map(p => ({ oid: base, rest: p.split('/').slice(0, -1) }))
  while (level.length > 0) {
    const oids = [...new Set(level.map(l => l.oid))]
    await clone.fetchObjects(oids)
    await lsTrees(clone.git, oids)
    const next: typeof level = []
    for (const l of level) {
      if (l.rest.length === 0) continue
      const item = (await lsTree(clone.git, l.oid)).find(i => i.name === l.rest[0])
      if (item?.type === 'tree') next.push({ oid: item.oid, rest: l.rest.slice(1) })
    }
    level = next
  }
}

/** The items at `paths` below `base` (absent ones left out), fetching the trees on the way. */
export async function itemsAt(
  clone: Clone,
  base: string | null,
  paths: string[]
): Promise<Map<string, TreeItem>> {
  const out = new Map<string, TreeItem>()
  if (!base) return out
  await fetchTreesOn(clone, base, paths)
  for (const p of paths) {
    const item = await itemAt(clone.git, base, p)
    if (item) out.set(p, item)
  }
  return out
}
