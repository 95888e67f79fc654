import { execFile } from 'node:child_process'
import { ObjectReader, type RawObject } from './cat-file'

export interface GitIdentity {
  name: string
  email: string
}

/** The identity GitHub shows as the Actions bot; commits by the CLI can pass their own. */
const BOT_IDENTITY: GitIdentity = {
  name: 'github-actions[bot]',
  email: '41898282+github-actions[bot]@users.noreply.github.com'
}

/** `https://user:token@host/x` → `https://***@host/x`: a credential in a URL is never printed. */
export const redactUrl = (text: string): string => text.replace(/(\w+:\/\/)[^/@\s]+@/g, '$1***@')

/**
 * A repository as git would take it: a value starting with `-` (`--upload-pack=…`) would be read
 * as an option, and `ext::` runs a command. Checked before any git call; git also gets `--`.
 * `name` is how the error calls the value (the caller's input name).
 */
export function checkRepository(repo: string, name = 'repository'): string {
  if (repo.startsWith('-') || /^ext::/i.test(repo) || /[\0\n\r]/.test(repo)) {
    throw new Error(
      `${name} '${redactUrl(repo)}' is not a repository path or URL (it would reach git as an option or a command)`
    )
  }
  return repo
}

export class GitError extends Error {
  readonly output: string
  constructor(
    readonly args: string[],
    output: string
  ) {
    const clean = redactUrl(output)
    super(`git ${args[0]} failed: ${clean.trim()}`)
    this.output = clean
    this.name = 'GitError'
  }
}

/**
 * Runs one git command; `input` goes to its stdin. `read` returns objects' contents through one
 * `cat-file --batch` kept open until `close`.
 */
export interface Git {
  (args: string[], input?: string): Promise<string>
  read(oids: string[]): Promise<RawObject[]>
  close(): void
}

/**
 * Runs git in `cwd` with everything it needs passed per call, never in global config: the identity,
 * the token as an HTTP header (kept out of argv, URLs and error messages), English messages for
 * matching push rejections, and no prompts or background gc.
 */
export function gitIn(cwd: string, options: { token?: string; identity?: GitIdentity } = {}): Git {
  const identity = options.identity ?? BOT_IDENTITY
  const config: [string, string][] = [
    ['gc.auto', '0'],
    ['maintenance.auto', 'false'],
    ['core.autocrlf', 'false'],
    // A link checked out from a history branch would carry writes out of the work tree.
    ['core.symlinks', 'false'],
    // Transports that run commands are never wanted for a history remote.
    ['protocol.ext.allow', 'never'],
    ['protocol.fd.allow', 'never']
  ]
  if (options.token) {
    const basic = Buffer.from(`x-access-token:${options.token}`).toString('base64')
    config.push(['http.extraheader', `AUTHORIZATION: basic ${basic}`])
  }
  const env: NodeJS.ProcessEnv = { ...process.env }
  for (const leak of ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE']) delete env[leak]
  Object.assign(env, {
    LC_ALL: 'C',
    GIT_TERMINAL_PROMPT: '0',
    GIT_AUTHOR_NAME: identity.name,
    GIT_AUTHOR_EMAIL: identity.email,
    GIT_COMMITTER_NAME: identity.name,
    GIT_COMMITTER_EMAIL: identity.email,
    GIT_CONFIG_COUNT: String(config.length),
    ...Object.fromEntries(
      config.flatMap(([k, v], i) => [
        [`GIT_CONFIG_KEY_${i}`, k],
        [`GIT_CONFIG_VALUE_${i}`, v]
      ])
    )
  })
  const git = (args: string[], input?: string): Promise<string> =>
    new Promise((resolve, reject) => {
      const child = execFile(
        'git',
        args,
        { cwd, env, maxBuffer: 256 << 20 },
        (err, stdout, stderr) => {
          if (err) reject(new GitError(args, `${stderr}${stdout}` || err.message))
          else resolve(stdout)
        }
      )
      // A command that exits without reading its input closes the pipe; its exit status decides.
      child.stdin?.on('error', () => undefined)
      child.stdin?.end(input)
    })
  const reader = new ObjectReader(cwd, env)
  return Object.assign(git, {
    read: (oids: string[]) => reader.read(oids),
    close: () => reader.close()
  })
}

/**
 * Asks the repository at `url` for its branches (`git ls-remote --heads`, a few hundred bytes):
 * throws a `GitError` when it does not answer.
 */
export async function lsRemoteHeads(url: string, token?: string): Promise<void> {
  const git = gitIn(process.cwd(), { token })
  try {
    await git(['ls-remote', '--heads', '--', url])
  } finally {
    git.close()
  }
}
