import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { invalidInput } from '../config/preflight'
import { assetPath } from '../paths'
import { gitIn } from '../store'
import type { CasePair } from '../topology/cases'
import { resolveTopology, topologyFiles } from '../topology/load'

/** A commit of the workspace's repository, checked out beside it as the base of a paired run. */
export interface BaseCheckout {
  dir: string
  sha: string
  remove(): Promise<void>
}

/**
 * `ref` as a detached git worktree in a folder named by its commit, so a second run of the same
 * pull request finds the same paths (and Docker the same build contexts). A worktree shares the
 * repository's objects: nothing is fetched or copied. A bisect checks out its heads too (`role`).
 */
export async function checkoutBase(
  workspace: string,
  ref: string,
  parent = process.env.RUNNER_TEMP || os.tmpdir(),
  role: 'base' | 'head' = 'base'
): Promise<BaseCheckout> {
  const git = gitIn(workspace)
  let sha: string
  try {
    sha = (await git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`])).trim()
  } catch {
    throw invalidInput(
      'baseline-ref',
      ref,
      `no such commit in the repository at ${workspace} (on a pull request, check out with fetch-depth: 0)`
    )
  }
  const dir = path.join(parent, `gnes-latency-bench-${role}-${sha.slice(0, 12)}`)
  // A worktree left by a killed run would refuse the add; it is ours to replace.
  await git(['worktree', 'remove', '--force', dir]).catch(() => undefined)
  fs.rmSync(dir, { recursive: true, force: true })
  await git(['worktree', 'prune'])
  await git(['worktree', 'add', '--detach', dir, sha])
  return {
    dir,
    sha,
    remove: async () => {
      await git(['worktree', 'remove', '--force', dir]).catch(() => undefined)
      fs.rmSync(dir, { recursive: true, force: true })
    }
  }
}

const isUnder = (file: string, dir: string): boolean => {
  const rel = path.relative(dir, path.resolve(file))
  return !rel.startsWith('..') && !path.isAbsolute(rel)
}

/**
 * `file` inside `workspace`, as the same path inside the checkout; null when it lies outside, or
 * when it is one of this action's own files (a shipped case, its Dockerfiles): bisect.yml checks
 * the action out inside the workspace, and the commits it measures know nothing of it.
 */
function inCheckout(file: string, workspace: string, dir: string): string | null {
  if (!isUnder(file, workspace) || isUnder(file, assetPath())) return null
  return path.join(dir, path.relative(workspace, path.resolve(file)))
}

/**
 * Each case's base from the checkout: the commit's own copy of the topology file, or of each
 * Compose file merged (its build contexts, `.env` and env files resolve there too). A shipped
 * case is its own base, wherever the action lies.
 */
export function checkoutPairs(
  pairs: CasePair[],
  workspace: string,
  base: BaseCheckout
): CasePair[] {
  return pairs.map(({ head }) => {
    const files = topologyFiles(head.file).map(f => inCheckout(f, workspace, base.dir))
    if (files.includes(null)) return { head, base: head }
    const missing = files.find(f => !fs.existsSync(f!))
    if (missing) {
      throw invalidInput(
        'baseline-ref',
        base.sha,
        `that commit has no ${path.relative(base.dir, missing)}: a new case has no base to measure`
      )
    }
    return { head, base: resolveTopology(files.join('+')) }
  })
}

/**
 * A path of the head's inputs (Dockerfile, build context, GNES source tree) as the checkout's
 * copy: the same path inside it, or the path itself when it lies outside the workspace.
 */
export const checkoutPath =
  (workspace: string, base: BaseCheckout) =>
  (file: string): string =>
    inCheckout(file, workspace, base.dir) ?? file
