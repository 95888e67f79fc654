import { readEvent } from '../result/event'

/** What the action needs of the workflow run's context, read from the runner's environment. */
export interface RunContext {
  event: string | null
  repository: string | null
  serverUrl: string
  apiUrl: string
  pullRequest: { number: number; baseRef: string; baseSha: string | null } | null
}

export function runContext(env: NodeJS.ProcessEnv = process.env): RunContext {
  const pr = readEvent(env).pull_request
  return {
    event: env.GITHUB_EVENT_NAME ?? null,
    repository: env.GITHUB_REPOSITORY ?? null,
    serverUrl: env.GITHUB_SERVER_URL ?? 'https://github.com',
    apiUrl: env.GITHUB_API_URL ?? 'https://api.github.com',
    pullRequest: pr
      ? { number: pr.number, baseRef: pr.base.ref, baseSha: pr.base.sha ?? null }
      : null
  }
}

/** GitHub Pages URL of a repository's history directory, e.g. https://o.github.io/r/benchmarks/. */
export function pagesUrl(repository: string, dir: string): string {
  const [owner, name] = repository.split('/')
  return `https://${owner}.github.io/${name}/${dir.replace(/^\/+|\/+$/g, '')}/`
}
