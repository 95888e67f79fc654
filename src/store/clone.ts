import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import type { BranchLocation } from './branch-target'
import { checkRepository, GitError, gitIn, type Git } from './git'
import { branchDir } from '../site/layout'
import { knownPrefix, knownRef, pendingPrefix } from './ref-names'
import { forgetObjects, isKnown, markLocal } from './tree'

/**
 * The work repository of one append or prune: a partial or full clone of the history branch,
 * fetched by depth or by object id, and the push that checks where the remote's tip ended up.
 */

/** The remote's own reason when it refused `ref` itself (a hook or a rule), not a lost race. */
function refusedRef(output: string, ref: string): string | null {
  const line = output.split('\n').find(l => l.includes(`:${ref}\t`))
  const reason = line?.match(/\[remote rejected\] \((.*)\)/)?.[1] ?? null
  // In an atomic push every ref fails with the one that failed: that one says why.
  return reason && !/atomic/.test(reason) ? reason : null
}

/** How far back `descends` looks: writes by others between two of this tool's are few. */
const DESCENT_DEPTH = 100

/** The name the work repository gives the history's remote. */
export const REMOTE = 'history'

export interface Clone {
  git: Git
  /** The remote's name in the work repository, for fetch and push. */
  repo: string
  /** Its URL or path, for messages. */
  url: string
  /** The history directory inside the branch, normalised (`.` for the root). */
  dir: string
  historyDir: string
  /** How errors name files: `gh-pages:benchmarks/...`. */
  label: string
  /**
   * Fetches the branch tip, null when the branch is absent. With `depth`, a partial fetch: only
   * trees less than `depth` levels deep, no blobs (servers without filters send everything).
   * With `pending`, the branch's pending refs come in the same fetch (their files' blobs do not),
   * and those the remote no longer has are dropped here: `listPending` lists them.
   */
  fetchTip(depth?: number, options?: { pending?: boolean }): Promise<string | null>
  /** Fetches objects by id (a tree without the trees and blobs it lists), in one round trip. */
  fetchObjects(oids: string[]): Promise<void>
  /**
   * The commit this tool last pushed to the branch (`knownRef`) as fetched with the pending refs,
   * or null when none was recorded (a history written before, or a remote refusing the ref).
   */
  knownTip(): Promise<string | null>
  /**
   * Whether `older` is among the last `DESCENT_DEPTH` commits behind `tip`: the branch moved on
   * from it by ordinary pushes. Fetches those commits without their trees.
   */
  descends(tip: string, older: string): Promise<boolean>
  /**
   * Fetches the tip in full and makes the work tree exactly its tree (empty when absent); the
   * branch's pending refs come along, for `listPending`.
   */
  checkout(): Promise<string | null>
  /**
   * Pushes `commit` to the branch without force, and checks the remote's tip is that commit. With
   * `fold` (pending ref → the commit it held when read), the same atomic push deletes those refs,
   * each only if it still holds that commit: the branch moves and the refs go, or nothing changes.
   */
  push(commit: string, fold?: Map<string, string>): Promise<void>
}

/** True when the work repository holds a partial fetch of the history remote. */
async function isPartial(git: Git): Promise<boolean> {
  try {
    return (await git(['config', '--get', `remote.${REMOTE}.promisor`])).trim() === 'true'
  } catch {
    return false
  }
}

/** Runs `use` in the caller's work dir, or in a temporary one removed afterwards. */
export async function withClone<T>(
  loc: BranchLocation,
  use: (clone: Clone) => Promise<T>
): Promise<T> {
  const dir = branchDir(loc.dir)
  checkRepository(loc.repo)
  const repo = fs.existsSync(loc.repo) ? path.resolve(loc.repo) : loc.repo
  const work = loc.workDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'gnes-history-'))
  const git = gitIn(work, { token: loc.token, identity: loc.identity })
  const tracking = `refs/remotes/history/${loc.branch}`
  const known = knownRef(loc.branch, dir)
  // Globs: a ref the remote lacks matches nothing instead of failing the fetch.
  const ownSpecs = [pendingPrefix(loc.branch, dir), knownPrefix(loc.branch, dir)].map(
    p => `+${p}*:${p}*`
  )
  // Whether objects may have arrived that this process has not seen (a fetch of the tip, or a
  // clone reused from an earlier append): then a fetch by id first lists what the clone holds.
  let unlisted = true
  const fetchTip = async (
    depth?: number,
    options: { pending?: boolean } = {}
  ): Promise<string | null> => {
    unlisted = true
    const filter = depth === undefined ? [] : [`--filter=combine:tree:${depth}+blob:none`]
    const spec = `+refs/heads/${loc.branch}:${tracking}`
    const fetch = ['fetch', '-q', '--no-tags', ...filter]
    const refs = options.pending ? ['--prune', '--', REMOTE, ...ownSpecs] : ['--', REMOTE]
    try {
      await git([...fetch, '--depth=1', ...refs, spec])
    } catch (err) {
      if (!(err instanceof GitError && /couldn't find remote ref/.test(err.output))) throw err
      // No branch yet; writers racing to create it may have parked entries already (root
      // commits: no depth to limit, and git refuses --depth when nothing matches).
      if (options.pending) await git([...fetch, '--prune', '--', REMOTE, ...ownSpecs])
      return null
    }
    return (await git(['rev-parse', '--verify', tracking])).trim()
  }
  try {
    fs.mkdirSync(work, { recursive: true })
    if (!fs.existsSync(path.join(work, '.git'))) await git(['init', '-q'])
    // A named remote: partial fetches register it as the promisor of what they leave out.
    await git(['config', `remote.${REMOTE}.url`, repo])
    return await use({
      git,
      repo: REMOTE,
      url: repo,
      dir,
      historyDir: path.join(work, dir),
      label: `${loc.branch}:${dir}`,
      fetchTip,
      async fetchObjects(oids) {
        oids = [...new Set(oids)].filter(o => !isKnown(git, o))
        if (oids.length === 0) return
        if (unlisted) {
          // Objects of the tip's fetch, or made or fetched by an earlier append in this clone,
          // are not fetched again. They are listed, not looked up: a lookup of a missing object
          // makes a partial clone fetch it.
          const list = ['cat-file', '--batch-all-objects', '--batch-check=%(objectname)']
          markLocal(git, (await git(list)).split('\n').filter(Boolean))
          unlisted = false
          oids = oids.filter(o => !isKnown(git, o))
          if (oids.length === 0) return
        }
        // As git's own lazy fetch asks: objects by id, no negotiation, no connectivity walk.
        const args = ['-c', 'fetch.negotiationAlgorithm=noop', 'fetch', '-q', '--no-tags']
        // tree:0 sends the objects asked for and nothing below them: a year's tree, not its months.
        const only = ['--no-write-fetch-head', '--recurse-submodules=no', '--filter=tree:0']
        await git([...args, ...only, '--stdin', '--', REMOTE], `${oids.join('\n')}\n`)
        markLocal(git, oids)
      },
      async push(commit, fold = new Map()) {
        const ref = `refs/heads/${loc.branch}`
        const leases = [...fold].map(([r, oid]) => `--force-with-lease=${r}:${oid}`)
        const deletes = [...fold.keys()].map(r => `:${r}`)
        const push = (own: string[]) =>
          git([
            'push',
            '-q',
            '--porcelain',
            '--atomic',
            ...leases,
            '--',
            REMOTE,
            `${commit}:${ref}`,
            ...own,
            ...deletes
          ])
        // The branch and the known ref move together, or neither does.
        try {
          await push([`+${commit}:${known}`])
        } catch (err) {
          const why = err instanceof GitError ? refusedRef(err.output, known) : null
          if (!why) throw err
          // A remote that refuses refs outside branches still gets the entries, unguarded.
          ;(loc.log ?? console.error)(
            `history: the remote refused ${known} (${why}): a force-push of ${loc.branch} that loses entries will not be noticed`
          )
          await push([])
        }
        const remote = (await git(['ls-remote', '--', REMOTE, ref])).split(/\s/)[0]
        if (remote !== commit) {
          throw new Error(
            `pushed ${commit} to ${loc.branch}, but the remote shows ${remote || 'no branch'}`
          )
        }
      },
      async knownTip() {
        try {
          return (await git(['rev-parse', '--verify', '-q', known])).trim()
        } catch {
          return null
        }
      },
      async descends(tip, older) {
        const only = ['--no-write-fetch-head', '--filter=tree:0', `--depth=${DESCENT_DEPTH}`]
        await git(['fetch', '-q', '--no-tags', ...only, '--', REMOTE, tip])
        unlisted = true
        return git(['merge-base', '--is-ancestor', older, tip]).then(
          () => true,
          () => false
        )
      },
      async checkout() {
        // A clone that fetched partially would fetch each missing tree on its own at checkout:
        // the full path starts from an empty repository instead.
        if (await isPartial(git)) {
          git.close()
          forgetObjects(git)
          fs.rmSync(path.join(work, '.git'), { recursive: true, force: true })
          await git(['init', '-q'])
          await git(['config', `remote.${REMOTE}.url`, repo])
        }
        const tip = await fetchTip(undefined, { pending: true })
        await git(tip ? ['reset', '-q', '--hard', tip] : ['read-tree', '--empty'])
        await git(['clean', '-q', '-ffdx'])
        return tip
      }
    })
  } finally {
    git.close()
    if (!loc.workDir) fs.rmSync(work, { recursive: true, force: true })
  }
}
