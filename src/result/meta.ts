import * as os from 'node:os'
import { workflowContext } from './context'
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
export const gitMeta = (env: NodeJS.ProcessEnv = process.env): GitMeta => workflowContext(env).git
