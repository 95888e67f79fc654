import type { Clone } from './clone'
import { GitError } from './git'
import { fmtElapsed } from '../text/duration'

/** The branch a push loop lands on, and how long it retries rejected pushes. */
export interface PushTarget {
  branch: string
  /** From the first attempt (ms); 20 minutes by default. */
  retryForMs?: number
}

/** Exponential backoff with ±50% jitter, so writers that collided do not collide again. */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  return Math.min(5000, 250 * 2 ** (attempt - 1)) * (0.5 + random())
}

const DEFAULT_RETRY_MS = 20 * 60_000
/** A push holds a ref lock for milliseconds: one that stays this long is a stale lock file. */
const STALE_LOCK_MS = 60_000

/**
 * Another writer got there first: the branch moved, a ref lock was held, or (when folding pending
 * refs) a pending ref was folded and deleted by someone else since it was read.
 */
export const REJECTED =
  /\[rejected\]|fetch first|non-fast-forward|cannot lock ref|failed to (update|lock) ref|incorrect old value|stale info|remote ref does not exist|atomic push failed/
const LOCKED = /cannot lock ref|failed to lock|Unable to create .*\.lock/

/** The line of git's output that says why, e.g. `! [rejected] … (fetch first)`. */
export const gitReason = (err: GitError): string =>
  err.output
    .split('\n')
    .map(l => l.trim())
    .filter(l => !/^hint:|failed to push some refs/.test(l))
    .filter(l => /rejected|lock|error|fatal|denied|Authentication|Could not|unable/i.test(l))
    .join('; ') || err.output.trim()

const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms))

/**
 * Runs `attempt` until its commit lands, re-running it on the new tip while pushes are rejected
 * (another writer pushed first), for up to `retryForMs`. Every retry is logged with git's reason;
 * giving up says git's last reason, and a ref lock that never clears is reported as stale.
 */
export async function pushLoop<
  T extends { tip: string | null; commit: string | null; fold?: Map<string, string> }
>(
  clone: Clone,
  target: PushTarget,
  log: (line: string) => void,
  attempt: (n: number) => Promise<T>
): Promise<{ result: T; attempts: number; pushed: boolean }> {
  const started = Date.now()
  const budget = target.retryForMs ?? DEFAULT_RETRY_MS
  let lockedSince: number | null = null
  for (let n = 1; ; n++) {
    const result = await attempt(n)
    if (!result.commit) return { result, attempts: n, pushed: false }
    try {
      await clone.push(result.commit, result.fold)
      if (n > 1)
        log(
          `history: landed on ${target.branch} at attempt ${n} after ${fmtElapsed((Date.now() - started) / 1000)}`
        )
      return { result, attempts: n, pushed: true }
    } catch (err) {
      if (!(err instanceof GitError && REJECTED.test(err.output))) throw err
      const reason = gitReason(err)
      const now = Date.now()
      lockedSince = LOCKED.test(err.output) ? (lockedSince ?? now) : null
      const stale = lockedSince !== null && now - lockedSince > STALE_LOCK_MS
      const rejected = `history: push to ${target.branch} rejected at attempt ${n} (${reason})`
      if (stale || now - started > budget) {
        log(rejected)
        throw new Error(
          `push to ${target.branch} failed ${n} times over ${fmtElapsed((now - started) / 1000, 0)}; giving up. ` +
            `git said: ${reason}` +
            (stale
              ? ` (the lock has stayed for over ${STALE_LOCK_MS / 1000} s: a stale lock file in the remote? remove it there)`
              : '')
        )
      }
      const wait = backoffMs(n)
      log(`${rejected}; retrying in ${fmtElapsed(wait / 1000)}`)
      await sleep(wait)
    }
  }
}
