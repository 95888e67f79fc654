import { onBranch } from '../site/layout'
import { itemAt, type Git } from '../store'

/**
 * Nothing may get lost between writing and committing: every added entry (path relative to the
 * history directory → blob id) is in the tree about to be committed, with the blob written for it.
 * Ignore rules cannot interfere (trees are built from ids, not a work tree), so a miss is a bug,
 * reported as one.
 */
export async function checkAdded(
  git: Git,
  root: string,
  dir: string,
  added: Map<string, string>,
  where = 'the tree to push'
): Promise<void> {
  for (const [rel, blob] of added) {
    const item = await itemAt(git, root, onBranch(dir, rel))
    if (item?.oid !== blob) throw new Error(`internal error: ${rel} is not in ${where}`)
  }
}
