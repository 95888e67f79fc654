import * as fs from 'node:fs'
import * as os from 'node:os'
import type { GitMeta, Result } from './schema'

type HostMeta = Result['meta']['host']

export function hostMeta(): HostMeta {
  const runner = process.env.RUNNER_NAME
    ? `${process.env.RUNNER_NAME} (${process.env.RUNNER_OS ?? os.platform()})`
    : null
  return {
    hostname: os.hostname(),
    os: `${os.type()} ${os.release()}`,
    arch: os.arch(),
    cpus: os.cpus().length,
    memoryBytes: os.totalmem(),
    node: process.version,
    runner
  }
}

/** The commit being benchmarked, from the Actions environment; all null elsewhere. */
export function gitMeta(env: NodeJS.ProcessEnv = process.env): GitMeta {
  let message: string | null = null
  let sha = env.GITHUB_SHA ?? null
  if (env.GITHUB_EVENT_PATH && fs.existsSync(env.GITHUB_EVENT_PATH)) {
    const event = JSON.parse(fs.readFileSync(env.GITHUB_EVENT_PATH, 'utf8'))
    message = event.head_commit?.message ?? event.pull_request?.title ?? null
    // On pull_request GITHUB_SHA is a synthetic merge commit; the head is what users recognise.
    sha = event.pull_request?.head?.sha ?? sha
  }
  return {
    sha,
    ref: env.GITHUB_HEAD_REF || env.GITHUB_REF || null,
    event: env.GITHUB_EVENT_NAME ?? null,
    repository: env.GITHUB_REPOSITORY ?? null,
    runId: env.GITHUB_RUN_ID ?? null,
    serverUrl: env.GITHUB_SERVER_URL ?? null,
    message
  }
}
