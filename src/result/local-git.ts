import { execFile } from 'node:child_process'
import type { GitMeta } from './schema'

/**
 * The commit a run outside Actions benchmarks: the git work tree it runs in (HEAD's sha, its
 * branch, subject line, and the GitHub repository of its `origin`), each field overridden by a
 * flag where given. Outside a work tree, only the flags.
 */

export const git = (cwd: string, args: string[]): Promise<string | null> =>
  new Promise(resolve =>
    execFile('git', args, { cwd, encoding: 'utf8' }, (err, out) =>
      resolve(err ? null : out.trim() || null)
    )
  )

/**
 * `owner/name` and the server of a GitHub remote URL (https, ssh, or scp-like), else null: other
 * hosts' names are not GitHub repositories, which is what `repository` means in the history.
 */
export function githubRepository(url: string): { repository: string; serverUrl: string } | null {
  const m =
    /^(?:https?:\/\/(?:[^@/]+@)?|ssh:\/\/git@|git@)(github\.com)[/:]([\w.-]+)\/([\w.-]+?)(?:\.git)?\/?$/.exec(
      url
    )
  return m ? { repository: `${m[2]}/${m[3]}`, serverUrl: `https://${m[1]}` } : null
}

/** What the flags may say of the commit; null fields are read from the work tree. */
export interface GitFlags {
  sha: string | null
  ref: string | null
  message: string | null
  repository: string | null
}

export async function localGitMeta(cwd: string, flags: GitFlags): Promise<GitMeta> {
  const inTree = (await git(cwd, ['rev-parse', '--is-inside-work-tree'])) === 'true'
  const read = (args: string[]) => (inTree ? git(cwd, args) : Promise.resolve(null))
  const origin = await read(['config', '--get', 'remote.origin.url'])
  const github = origin ? githubRepository(origin) : null
  return {
    sha: flags.sha ?? (await read(['rev-parse', '--verify', 'HEAD'])),
    ref: flags.ref ?? (await read(['symbolic-ref', '-q', 'HEAD'])),
    event: null,
    repository: flags.repository ?? github?.repository ?? null,
    runId: null,
    serverUrl: github?.serverUrl ?? (flags.repository ? 'https://github.com' : null),
    message: flags.message ?? (await read(['log', '-1', '--format=%s']))
  }
}
