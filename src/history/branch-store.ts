import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import {
  applyAppend,
  applyPrune,
  type AppendOutcome,
  type PruneOutcome,
  type Render
} from './dir-store'
import { GitError, gitIn, type Git, type GitIdentity } from './git'
import { appendMessage, type PruneRule } from './plan'
import { readHistory } from './read'
import type { HistoryEntry } from './schema'

export interface BranchTarget {
  /** Remote URL or local path (a bare repository, or one whose checkout is not this branch). */
  repo: string
  /** Created as an orphan branch when absent. */
  branch: string
  /** History directory inside the branch, e.g. `benchmarks`. */
  dir: string
  token?: string
  /** A directory to keep the clone in; reusing it makes later fetches incremental. */
  workDir?: string
  identity?: GitIdentity
  /** Rejected pushes tolerated before giving up; each retry re-fetches and re-applies. */
  retries?: number
  /** Re-renders README/charts so they land in the same commit as the entries. */
  render?: Render
}

export interface BranchCommit {
  /** The commit now at the branch tip, or null when the branch is still absent. */
  commit: string | null
  /** False when there was nothing to change (e.g. every entry was stored already). */
  pushed: boolean
  attempts: number
}

interface Change {
  changed: boolean
  all: HistoryEntry[]
  message: string
}

/** Exponential backoff with ±50% jitter, so writers that collided do not collide again. */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  return Math.min(5000, 250 * 2 ** (attempt - 1)) * (0.5 + random())
}

const REJECTED =
  /\[rejected\]|fetch first|non-fast-forward|cannot lock ref|failed to (update|lock) ref|incorrect old value/

function checkedDir(dir: string): string {
  const norm = path.posix.normalize(dir.replace(/\\/g, '/'))
  if (path.posix.isAbsolute(norm) || norm === '..' || norm.startsWith('../')) {
    throw new Error(`history-dir '${dir}' must be a path inside the branch`)
  }
  return norm
}

/** Fetches the branch tip (shallow: only the tip's tree is needed); null when the branch is absent. */
async function fetchTip(git: Git, repo: string, branch: string): Promise<string | null> {
  const tracking = `refs/remotes/history/${branch}`
  try {
    await git(['fetch', '-q', '--no-tags', '--depth=1', repo, `+refs/heads/${branch}:${tracking}`])
  } catch (err) {
    if (err instanceof GitError && /couldn't find remote ref/.test(err.output)) return null
    throw err
  }
  return (await git(['rev-parse', '--verify', tracking])).trim()
}

/** Where the history lives: the fields of a BranchTarget that reading needs. */
export type BranchLocation = Pick<
  BranchTarget,
  'repo' | 'branch' | 'dir' | 'token' | 'workDir' | 'identity'
>

interface Clone {
  git: Git
  repo: string
  historyDir: string
  /** How errors name files: `gh-pages:benchmarks/...`. */
  label: string
  /** Fetches the tip and makes the work tree exactly its tree (empty when the branch is absent). */
  checkout(): Promise<string | null>
}

/** Runs `use` in the caller's work dir, or in a temporary one removed afterwards. */
async function withClone<T>(loc: BranchLocation, use: (clone: Clone) => Promise<T>): Promise<T> {
  const dir = checkedDir(loc.dir)
  const repo = fs.existsSync(loc.repo) ? path.resolve(loc.repo) : loc.repo
  const work = loc.workDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'gnes-history-'))
  const git = gitIn(work, { token: loc.token, identity: loc.identity })
  try {
    fs.mkdirSync(work, { recursive: true })
    if (!fs.existsSync(path.join(work, '.git'))) await git(['init', '-q'])
    return await use({
      git,
      repo,
      historyDir: path.join(work, dir),
      label: `${loc.branch}:${dir}`,
      async checkout() {
        const tip = await fetchTip(git, repo, loc.branch)
        await git(tip ? ['reset', '-q', '--hard', tip] : ['read-tree', '--empty'])
        await git(['clean', '-q', '-ffdx'])
        return tip
      }
    })
  } finally {
    if (!loc.workDir) fs.rmSync(work, { recursive: true, force: true })
  }
}

/** The validated history at the branch tip (empty when the branch is absent); writes nothing. */
export async function readBranchHistory(loc: BranchLocation): Promise<HistoryEntry[]> {
  return withClone(loc, async clone =>
    (await clone.checkout()) ? readHistory(clone.historyDir, { label: clone.label }) : []
  )
}

/**
 * One read-modify-push transaction on the branch, repeated on a fresh tip while pushes are
 * rejected. `change` must validate before it writes; when it throws, nothing is committed or pushed.
 */
async function updateBranch(
  target: BranchTarget,
  change: (historyDir: string, label: string) => Change
): Promise<BranchCommit> {
  const retries = target.retries ?? 10
  return withClone(target, async ({ git, repo, historyDir, label, checkout }) => {
    for (let attempt = 1; ; attempt++) {
      const tip = await checkout()
      const c = change(historyDir, label)
      if (!c.changed) return { commit: tip, pushed: false, attempts: attempt }
      if (target.render) await target.render(historyDir, c.all)
      await git(['add', '-A', '.'])
      const tree = (await git(['write-tree'])).trim()
      const parents = tip ? ['-p', tip] : []
      const commit = (await git(['commit-tree', tree, ...parents, '-m', c.message])).trim()
      try {
        await git(['push', '-q', '--porcelain', repo, `${commit}:refs/heads/${target.branch}`])
        return { commit, pushed: true, attempts: attempt }
      } catch (err) {
        if (!(err instanceof GitError && REJECTED.test(err.output))) throw err
        if (attempt > retries) {
          throw new Error(`push to ${target.branch} rejected ${attempt} times; giving up`)
        }
      }
      await new Promise(resolve => setTimeout(resolve, backoffMs(attempt)))
    }
  })
}

/**
 * Appends entries to the history on a git branch: fetch (or start an orphan branch), validate the
 * stored history, write the missing entries, render, commit, push; on a rejected push, start over
 * from the new tip. Appending entries that are all stored already pushes nothing.
 */
export async function appendToBranch(
  target: BranchTarget & { entries: HistoryEntry[]; message?: string }
): Promise<BranchCommit & AppendOutcome> {
  let outcome: AppendOutcome = { added: [], present: [], all: [] }
  const commit = await updateBranch(target, (historyDir, label) => {
    outcome = applyAppend(historyDir, target.entries, label)
    const ids = new Set(outcome.added)
    const added = target.entries.filter(e => ids.has(e.id))
    return {
      changed: added.length > 0,
      all: outcome.all,
      message: target.message ?? appendMessage(added)
    }
  })
  return { ...commit, ...outcome }
}

/** Deletes the entries the rule selects from the history on a git branch, in one commit. */
export async function pruneBranch(
  target: BranchTarget & { rule: PruneRule; dryRun?: boolean }
): Promise<BranchCommit & PruneOutcome> {
  let outcome: PruneOutcome = { removed: [], all: [] }
  const commit = await updateBranch(target, (historyDir, label) => {
    outcome = applyPrune(historyDir, target.rule, target.dryRun ?? false, label)
    const cases = [...new Set(outcome.removed.map(e => e.caseId))].sort().join(',')
    return {
      changed: !target.dryRun && outcome.removed.length > 0,
      all: outcome.all,
      message: `history: prune ${outcome.removed.length} entries of cases ${cases}`
    }
  })
  return { ...commit, ...outcome }
}
