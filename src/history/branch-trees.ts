import type { BranchTarget } from './branch-target'
import type { Clone } from './clone'
import { HistoryError } from './errors'
import { redactUrl, type Git } from './git'
import { ENTRIES_DIR } from './layout'
import { caseIndexPath, idsOfFiles, INDEX_DIR } from './manifest'
import { itemAt, lsTree } from './tree'

/**
 * Reading the history's git trees at a tip, on a partial clone: where the history directory is,
 * whether it is a history branch, and each case's directory of months.
 */

export const under = (dir: string, rel: string): string => (dir === '.' ? rel : `${dir}/${rel}`)

/** Tree levels a partial fetch takes: down to each case's list of months (`<dir>/entries/<case>`). */
export const partialDepth = (dir: string): number => (dir === '.' ? 0 : dir.split('/').length) + 3

/** The tree of the history directory at `root`, or null when the branch has none. */
export async function historyTree(git: Git, root: string, dir: string): Promise<string | null> {
  const item = dir === '.' ? { type: 'tree', oid: root } : await itemAt(git, root, dir)
  return item?.type === 'tree' ? item.oid : null
}

/**
 * A history branch is one this tool created: its history directory holds `index/` (written from
 * this version on) or `entries/` (written by earlier ones). Anything else, such as a branch of
 * code or a site, is written to only when the caller adopts it.
 */
export async function checkHistoryBranch(
  clone: Clone,
  target: BranchTarget,
  dirTree: string | null
): Promise<{ entries: boolean; index: boolean }> {
  const names = dirTree ? (await lsTree(clone.git, dirTree)).map(i => i.name) : []
  const found = { entries: names.includes(ENTRIES_DIR), index: names.includes(INDEX_DIR) }
  if (!found.entries && !found.index && !target.adopt) {
    throw new Error(
      `branch '${target.branch}' of ${redactUrl(clone.url)} exists but holds no history in '${clone.dir}' ` +
        `(no ${ENTRIES_DIR}/ or ${INDEX_DIR}/ there): refusing to write onto it. ` +
        'Pick another gh-pages-branch / history-dir, or pass --adopt-branch (input adopt-branch: true) to add the history to it.'
    )
  }
  return found
}


export interface CaseTree {
  /** The case's directory `entries/<case>`. */
  tree: string
  /** Month → its directory's tree id. */
  months: Map<string, string>
}

/** Each case directory of `entries/` at the tip, by its (encoded) name. */
export async function caseTrees(git: Git, dirTree: string | null): Promise<Map<string, CaseTree>> {
  const out = new Map<string, CaseTree>()
  const entries = dirTree ? await itemAt(git, dirTree, ENTRIES_DIR) : null
  if (entries?.type !== 'tree') return out
  for (const c of await lsTree(git, entries.oid)) {
    if (c.type !== 'tree') continue
    const months = (await lsTree(git, c.oid)).filter(m => m.type === 'tree')
    out.set(c.name, { tree: c.oid, months: new Map(months.map(m => [m.name, m.oid])) })
  }
  return out
}

export const encoded = (caseId: string): string => caseIndexPath(caseId).slice(INDEX_DIR.length + 1, -5)

/** A case directory's id, from the name it is stored under. */
export function caseIdOf(encodedName: string, name: (rel: string) => string): string {
  const id = idsOfFiles([`${encodedName}.json`])[`${encodedName}.json`]
  if (!id) {
    throw new HistoryError(name(`${ENTRIES_DIR}/${encodedName}`), 'is not a case directory')
  }
  return id
}
