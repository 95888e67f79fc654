import * as os from 'node:os'
import { readEvent } from './event'
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
  const event = readEvent(env)
  return {
    // On pull_request GITHUB_SHA is a synthetic merge commit; the head is what users recognise.
    sha: event.pull_request?.head.sha ?? env.GITHUB_SHA ?? null,
    ref: env.GITHUB_HEAD_REF || env.GITHUB_REF || null,
    event: env.GITHUB_EVENT_NAME ?? null,
    repository: env.GITHUB_REPOSITORY ?? null,
    runId: env.GITHUB_RUN_ID ?? null,
    serverUrl: env.GITHUB_SERVER_URL ?? null,
    message: event.head_commit?.message ?? event.pull_request?.title ?? null
  }
}
