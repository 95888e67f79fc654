import { execFile } from 'node:child_process'

export interface GitIdentity {
  name: string
  email: string
}

/** The identity GitHub shows as the Actions bot; commits by the CLI can pass their own. */
export const BOT_IDENTITY: GitIdentity = {
  name: 'github-actions[bot]',
  email: '41898282+github-actions[bot]@users.noreply.github.com'
}

export class GitError extends Error {
  constructor(
    readonly args: string[],
    readonly output: string
  ) {
    super(`git ${args[0]} failed: ${output.trim()}`)
    this.name = 'GitError'
  }
}

export type Git = (args: string[]) => Promise<string>

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
    ['core.autocrlf', 'false']
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
  return args =>
    new Promise((resolve, reject) => {
      execFile('git', args, { cwd, env, maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
        if (err) reject(new GitError(args, `${stderr}${stdout}` || err.message))
        else resolve(stdout)
      })
    })
}
