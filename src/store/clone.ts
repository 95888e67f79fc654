import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { checkRepository, GitError, gitIn, type Git, type GitIdentity } from './git'
import { knownPrefix, knownRef, pendingPrefix } from './ref-names'
import { forgetObjects, isKnown, markLocal } from './tree'

/**
 * The work repository of one write or read: a partial or full clone of one directory of a branch,
 * fetched by depth or by object id, and the push that checks where the remote's tip ended up.
 */

/** Where the store's files live: a directory of a branch of a repository. */
export interface StoreLocation {
  /** Remote URL or local path (a bare repository, or one whose checkout is not this branch). */
  repo: string
  /** Created as an orphan branch when absent. */
  branch: string
  /** The directory inside the branch, normalised: `.` for the root, no `..`, no trailing slash. */
  dir: string
  token?: string
  /** A directory to keep the clone in; reusing it makes later fetches incremental. */
  workDir?: string
  identity?: GitIdentity
  /** Where warnings are reported; standard error by default. */
  log?: (line: string) => void
}

/** How far back `descends` looks: writes by others between two of this tool's are few. */
const DESCENT_DEPTH = 100

/** The name the work repository gives the remote. */
export const REMOTE = 'history'

export interface Clone {
  git: Git
  /** The remote's name in the work repository, for fetch and push. */
  repo: string
  /** Its URL or path, for messages. */
  url: string
  /** The directory inside the branch, normalised (`.` for the root). */
  dir: string
  /** That directory in the work tree, as `checkout` fills it. */
  checkoutDir: string
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
   * or null when none was recorded (a branch written before, or a remote refusing the ref).
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
  /** Stages the work tree whole (`add -f`: no ignore rule leaves a file out); returns its tree. */
  stage(): Promise<string>
  /**
   * Pushes `commit` to the branch without force, and checks the remote's tip is that commit. With
   * `fold` (pending ref → the commit it held when read), the same atomic push deletes those refs,
   * each only if it still holds that commit: the branch moves and the refs go, or nothing changes.
   */
  push(commit: string, fold?: Map<string, string>): Promise<void>
}

/** One work repository and the names its steps use; `unlisted` is the one state they share. */
interface Work {
  git: Git
  /** The work tree's path. */
  path: string
  /** The remote's URL or path (a local path made absolute). */
  url: string
  loc: StoreLocation
  /** `refs/remotes/history/<branch>`: where a fetch of the tip lands. */
  tracking: string
  /** The known ref (`knownRef`), moved with every push of the branch. */
  known: string
  /** Fetch specs of this tool's own refs beside the branch (pending and known). */
  ownSpecs: string[]
  /**
   * Whether objects may have arrived that this process has not seen (a fetch of the tip, or a
   * clone reused from an earlier write): then a fetch by id first lists what the clone holds.
   */
  unlisted: boolean
}

/** Throws unless `dir` is a normalised directory inside the branch: paths are joined to it. */
function checkDir(dir: string): string {
  const norm = path.posix.normalize(dir)
  const outside = path.posix.isAbsolute(dir) || norm === '..' || norm.startsWith('../')
  if (outside || norm !== dir || (dir !== '.' && dir.endsWith('/'))) {
    throw new Error(`'${dir}' is not a normalised directory inside the branch`)
  }
  return dir
}

/** The work repository's names; nothing is created yet but a temporary directory. */
function openWork(loc: StoreLocation): Work {
  checkDir(loc.dir)
  checkRepository(loc.repo)
  const work = loc.workDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'gnes-history-'))
  return {
    git: gitIn(work, { token: loc.token, identity: loc.identity }),
    path: work,
    url: fs.existsSync(loc.repo) ? path.resolve(loc.repo) : loc.repo,
    loc,
    tracking: `refs/remotes/${REMOTE}/${loc.branch}`,
    known: knownRef(loc.branch, loc.dir),
    // Globs: a ref the remote lacks matches nothing instead of failing the fetch.
    ownSpecs: [pendingPrefix(loc.branch, loc.dir), knownPrefix(loc.branch, loc.dir)].map(
      p => `+${p}*:${p}*`
    ),
    unlisted: true
  }
}

/** An empty (or reused) repository with the remote named: partial fetches register it as promisor. */
async function initRepository(w: Work): Promise<void> {
  fs.mkdirSync(w.path, { recursive: true })
  if (!fs.existsSync(path.join(w.path, '.git'))) await w.git(['init', '-q'])
  await w.git(['config', `remote.${REMOTE}.url`, w.url])
}

async function fetchTip(
  w: Work,
  depth?: number,
  options: { pending?: boolean } = {}
): Promise<string | null> {
  w.unlisted = true
  const filter = depth === undefined ? [] : [`--filter=combine:tree:${depth}+blob:none`]
  const spec = `+refs/heads/${w.loc.branch}:${w.tracking}`
  const fetch = ['fetch', '-q', '--no-tags', ...filter]
  const refs = options.pending ? ['--prune', '--', REMOTE, ...w.ownSpecs] : ['--', REMOTE]
  try {
    await w.git([...fetch, '--depth=1', ...refs, spec])
  } catch (err) {
    if (!(err instanceof GitError && /couldn't find remote ref/.test(err.output))) throw err
    // No branch yet; writers racing to create it may have parked files already (root
    // commits: no depth to limit, and git refuses --depth when nothing matches).
    if (options.pending) await w.git([...fetch, '--prune', '--', REMOTE, ...w.ownSpecs])
    return null
  }
  return (await w.git(['rev-parse', '--verify', w.tracking])).trim()
}

/** The ids not known to be in the clone; lists what it holds first when objects may have come. */
async function unknownObjects(w: Work, oids: string[]): Promise<string[]> {
  const { git } = w
  const unknown = (ids: string[]) => ids.filter(o => !isKnown(git, o))
  oids = unknown([...new Set(oids)])
  if (oids.length === 0 || !w.unlisted) return oids
  // Objects of the tip's fetch, or made or fetched by an earlier write in this clone, are not
  // fetched again. They are listed, not looked up: a lookup of a missing object makes a partial
  // clone fetch it.
  const list = ['cat-file', '--batch-all-objects', '--batch-check=%(objectname)']
  markLocal(git, (await git(list)).split('\n').filter(Boolean))
  w.unlisted = false
  return unknown(oids)
}

async function fetchObjects(w: Work, ids: string[]): Promise<void> {
  const oids = await unknownObjects(w, ids)
  if (oids.length === 0) return
  // As git's own lazy fetch asks: objects by id, no negotiation, no connectivity walk.
  const args = ['-c', 'fetch.negotiationAlgorithm=noop', 'fetch', '-q', '--no-tags']
  // tree:0 sends the objects asked for and nothing below them: a year's tree, not its months.
  const only = ['--no-write-fetch-head', '--recurse-submodules=no', '--filter=tree:0']
  await w.git([...args, ...only, '--stdin', '--', REMOTE], `${oids.join('\n')}\n`)
  markLocal(w.git, oids)
}

/** The remote's own reason when it refused `ref` itself (a hook or a rule), not a lost race. */
function refusedRef(output: string, ref: string): string | null {
  const line = output.split('\n').find(l => l.includes(`:${ref}\t`))
  const reason = line?.match(/\[remote rejected\] \((.*)\)/)?.[1] ?? null
  // In an atomic push every ref fails with the one that failed: that one says why.
  return reason && !/atomic/.test(reason) ? reason : null
}

/** The atomic push of `commit` to the branch with `own` refs beside it, deleting `fold`'s refs. */
function pushRefs(w: Work, commit: string, fold: Map<string, string>, own: string[]) {
  const leases = [...fold].map(([r, oid]) => `--force-with-lease=${r}:${oid}`)
  const deletes = [...fold.keys()].map(r => `:${r}`)
  const ref = `refs/heads/${w.loc.branch}`
  const refspecs = [`${commit}:${ref}`, ...own, ...deletes]
  return w.git(['push', '-q', '--porcelain', '--atomic', ...leases, '--', REMOTE, ...refspecs])
}

async function push(w: Work, commit: string, fold: Map<string, string> = new Map()): Promise<void> {
  const { loc, known } = w
  // The branch and the known ref move together, or neither does.
  try {
    await pushRefs(w, commit, fold, [`+${commit}:${known}`])
  } catch (err) {
    const why = err instanceof GitError ? refusedRef(err.output, known) : null
    if (!why) throw err
    // A remote that refuses refs outside branches still gets the files, unguarded.
    ;(loc.log ?? console.error)(
      `history: the remote refused ${known} (${why}): a force-push of ${loc.branch} that loses entries will not be noticed`
    )
    await pushRefs(w, commit, fold, [])
  }
  const shown = await w.git(['ls-remote', '--', REMOTE, `refs/heads/${loc.branch}`])
  const remote = shown.split(/\s/)[0]
  if (remote !== commit) {
    throw new Error(
      `pushed ${commit} to ${loc.branch}, but the remote shows ${remote || 'no branch'}`
    )
  }
}

async function knownTip(w: Work): Promise<string | null> {
  try {
    return (await w.git(['rev-parse', '--verify', '-q', w.known])).trim()
  } catch {
    return null
  }
}

async function descends(w: Work, tip: string, older: string): Promise<boolean> {
  const only = ['--no-write-fetch-head', '--filter=tree:0', `--depth=${DESCENT_DEPTH}`]
  await w.git(['fetch', '-q', '--no-tags', ...only, '--', REMOTE, tip])
  w.unlisted = true
  return w.git(['merge-base', '--is-ancestor', older, tip]).then(
    () => true,
    () => false
  )
}

/** True when the work repository holds a partial fetch of the remote. */
async function isPartial(git: Git): Promise<boolean> {
  try {
    return (await git(['config', '--get', `remote.${REMOTE}.promisor`])).trim() === 'true'
  } catch {
    return false
  }
}

async function checkout(w: Work): Promise<string | null> {
  const { git } = w
  // A clone that fetched partially would fetch each missing tree on its own at checkout: the
  // full path starts from an empty repository instead.
  if (await isPartial(git)) {
    git.close()
    forgetObjects(git)
    fs.rmSync(path.join(w.path, '.git'), { recursive: true, force: true })
    await initRepository(w)
  }
  const tip = await fetchTip(w, undefined, { pending: true })
  await git(tip ? ['reset', '-q', '--hard', tip] : ['read-tree', '--empty'])
  await git(['clean', '-q', '-ffdx'])
  return tip
}

async function stage(w: Work): Promise<string> {
  await w.git(['add', '-A', '-f', '--', '.'])
  return (await w.git(['write-tree'])).trim()
}

/** The clone's interface over its work repository. */
const cloneOf = (w: Work): Clone => ({
  git: w.git,
  repo: REMOTE,
  url: w.url,
  dir: w.loc.dir,
  checkoutDir: path.join(w.path, w.loc.dir),
  label: `${w.loc.branch}:${w.loc.dir}`,
  fetchTip: (depth, options) => fetchTip(w, depth, options),
  fetchObjects: oids => fetchObjects(w, oids),
  knownTip: () => knownTip(w),
  descends: (tip, older) => descends(w, tip, older),
  checkout: () => checkout(w),
  stage: () => stage(w),
  push: (commit, fold) => push(w, commit, fold)
})

/** Runs `use` in the caller's work dir, or in a temporary one removed afterwards. */
export async function withClone<T>(
  loc: StoreLocation,
  use: (clone: Clone) => Promise<T>
): Promise<T> {
  const w = openWork(loc)
  try {
    await initRepository(w)
    return await use(cloneOf(w))
  } finally {
    w.git.close()
    if (!loc.workDir) fs.rmSync(w.path, { recursive: true, force: true })
  }
}
