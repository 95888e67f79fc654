import type { BranchTarget } from './branch-target'
import { HistoryError } from './errors'
import { decadeOf, ENTRIES_DIR, INDEX_DIR, monthOfDirs } from '../site/layout'
import { idsOfFiles } from './manifest'
import { itemAt, lsTree, lsTrees, redactUrl, type Clone, type Git, type TreeItem } from '../store'

/**
 * Reading the history's git trees at a tip, on a partial clone: whether it is a history branch,
 * and each case's years and months.
 */

/** Tree levels a partial fetch takes: down to each case's list of decades (`<dir>/entries/<case>`). */
export const partialDepth = (dir: string): number => (dir === '.' ? 0 : dir.split('/').length) + 3

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

/** Each case directory of `entries/` at the tip (`entries/<case>`): encoded name → tree id. */
export async function caseTrees(git: Git, dirTree: string | null): Promise<Map<string, string>> {
  const entries = dirTree ? await itemAt(git, dirTree, ENTRIES_DIR) : null
  if (entries?.type !== 'tree') return new Map()
  const cases = (await lsTree(git, entries.oid)).filter(c => c.type === 'tree')
  return new Map(cases.map(c => [c.name, c.oid]))
}

/**
 * Every month under a case's directory of decades (`entries/<case>`, `index/<case>`), as `YYYY-MM`
 * → the month's item (a directory of entries, or a file such as `MM.json`), fetching the decade
 * and year trees a level per round trip. A name that is not a decade, a year of it or a month is
 * an error naming it (`label` is the directory's name in errors).
 */
export async function monthsUnder(
  clone: Clone,
  tree: string | null,
  label: string
): Promise<Map<string, TreeItem>> {
  const out = new Map<string, TreeItem>()
  if (!tree) return out
  const layout = '(the history is stored as <case>/<DDD0>s/<YYYY>/<MM>/)'
  const decades = await subdirs(clone, [{ oid: tree, path: label }], (name: string) =>
    /^\d{3}0s$/.test(name) ? null : `is not a decade directory ${layout}`
  )
  const years = await subdirs(clone, decades, (name: string, parent: string) =>
    /^\d{4}$/.test(name) && parent.endsWith(`/${decadeOf(name)}`)
      ? null
      : `is not a year directory of its decade ${layout}`
  )
  for (const year of years) {
    for (const item of await lsTree(clone.git, year.oid)) {
      const month = monthOfDirs(year.name, item.name.replace(/\.[a-z]+$/, ''))
      if (!month) throw new HistoryError(`${year.path}/${item.name}`, 'is not a month')
      out.set(month, item)
    }
  }
  return out
}

/**
 * The directories one level below `parents` (whose trees are local), fetched and listed in one
 * round trip. Anything else there, or a name `check` rejects (it returns why), is an error naming it.
 */
async function subdirs(
  clone: Clone,
  parents: { oid: string; path: string }[],
  check: (name: string, parent: string) => string | null
): Promise<{ oid: string; path: string; name: string }[]> {
  const out: { oid: string; path: string; name: string }[] = []
  for (const parent of parents) {
    for (const item of await lsTree(clone.git, parent.oid)) {
      const why = item.type === 'tree' ? check(item.name, parent.path) : 'is not a directory'
      if (why) throw new HistoryError(`${parent.path}/${item.name}`, why)
      out.push({ oid: item.oid, path: `${parent.path}/${item.name}`, name: item.name })
    }
  }
  await clone.fetchObjects(out.map(d => d.oid))
  await lsTrees(
    clone.git,
    out.map(d => d.oid)
  )
  return out
}

/** A case directory's id, from the name it is stored under. */
export function caseIdOf(encodedName: string, name: (rel: string) => string): string {
  const id = idsOfFiles([`${encodedName}.json`])[`${encodedName}.json`]
  if (!id) {
    throw new HistoryError(name(`${ENTRIES_DIR}/${encodedName}`), 'is not a case directory')
  }
  return id
}
