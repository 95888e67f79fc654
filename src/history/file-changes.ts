import { checkSitePath } from '../site/site'
import { writeBlob, type Git, type TreeChanges } from '../store'

/**
 * Files of the history directory (path → bytes: a rendered site, index files) as tree changes,
 * each a blob queued for the next commit. A path that would leave the directory is refused.
 */
export async function fileChanges(git: Git, files: Map<string, Buffer>): Promise<TreeChanges> {
  const changes: TreeChanges = new Map()
  for (const [rel, bytes] of files) changes.set(checkSitePath(rel), await writeBlob(git, bytes))
  return changes
}
