import { HistoryError } from './errors'
import { ENTRIES_DIR, onBranch } from '../site/layout'
import { idsOfFiles } from './manifest'
import { itemAt, knownRef, lsTree, lsTrees, redactUrl, treeOf, type Clone } from '../store'
import { terminalSafe } from '../text/terminal'

/**
 * A history never loses entries without a word. Every push of this tool moves `knownRef` with
 * the branch; a force-push of the branch (rewound to an ancestor, replaced by another history,
 * deleted) leaves it behind. Before writing, a branch that no longer descends from the known
 * commit must still hold every entry that commit held: if some are gone, the write refuses,
 * naming them and where they are, so they can be restored; nothing more is written onto the
 * rewritten branch. (Entries deleted by a commit on top are named by the index's warning,
 * docs/history.md.)
 */

/** How many missing ids a refusal lists before it counts the rest. */
const LISTED = 20

/**
 * Every entry id stored under `<dir>/entries` at `commit` (any layout), reading the trees a level
 * per round trip on a partial clone; an empty set when the commit has no entries directory.
 */
async function entryIdsAt(clone: Clone, commit: string): Promise<Set<string>> {
  const root = await treeOf(clone.git, commit)
  const top = await itemAt(clone.git, root, onBranch(clone.dir, ENTRIES_DIR))
  const names: string[] = []
  let level = top?.type === 'tree' ? [top.oid] : []
  while (level.length > 0) {
    await clone.fetchObjects(level)
    await lsTrees(clone.git, level)
    const items = (await Promise.all(level.map(oid => lsTree(clone.git, oid)))).flat()
    names.push(...items.filter(i => i.type === 'blob' && i.name.endsWith('.json')).map(i => i.name))
    level = items.filter(i => i.type === 'tree').map(i => i.oid)
  }
  return new Set(Object.values(idsOfFiles(names)))
}

/**
 * Throws when the branch at `tip` (null: deleted) lacks entries it held at the commit this tool
 * last pushed there. A branch that moved on from it, or was rewritten keeping every entry, passes.
 */
export async function checkContinuity(
  clone: Clone,
  branch: string,
  tip: string | null,
  refetch: () => Promise<string | null>
): Promise<void> {
  const lostAt = async (at: string | null) => {
    const known = await clone.knownTip()
    if (!known || known === at) return null
    // Moved on by ordinary pushes: entries deleted on the way are the index's to warn about.
    if (at && (await clone.descends(at, known))) return null
    const before = await entryIdsAt(clone, known)
    const now = at ? await entryIdsAt(clone, at) : new Set<string>()
    const lost = [...before].filter(id => !now.has(id)).sort()
    return lost.length ? { known, before: before.size, lost, at } : null
  }
  // A fetch that read the refs while another writer's push moved both is looked at once more.
  const found = (await lostAt(tip)) && (await lostAt(await refetch()))
  if (!found) return
  const { known, lost } = found
  const ref = knownRef(branch, clone.dir)
  const url = redactUrl(clone.url)
  // Ids are file names from the branch: shown with control characters made visible.
  const shown = terminalSafe(lost.slice(0, LISTED).join(', '))
  const more = lost.length > LISTED ? ` and ${lost.length - LISTED} more` : ''
  const where = found.at ? `${branch} (now at ${found.at})` : `${branch}, now deleted,`
  throw new HistoryError(
    `${branch}:${clone.dir}`,
    `${where} lacks ` +
      `${lost.length} of the ${found.before} entries it held at ${known}, the commit this tool ` +
      `last pushed there: it was force-pushed, rewound or replaced since. Refusing to write, so ` +
      `nothing more is lost. Missing: ${shown}${more}. They are in ${known}, kept at ${ref}: ` +
      `restore them with \`git fetch ${url} ${ref}\` and \`git checkout FETCH_HEAD -- ` +
      `${onBranch(clone.dir, ENTRIES_DIR)}\` on ${branch}, committed and pushed; or, to accept ` +
      `the loss, delete that ref: \`git push ${url} --delete ${ref}\`.`
  )
}
