import * as path from 'node:path'

/** Every container, network and volume this tool creates carries these labels, so cleanup finds them. */
export const LABEL = {
  tool: 'io.gnes-latency-bench',
  runId: 'io.gnes-latency-bench.run-id',
  repository: 'io.gnes-latency-bench.repository',
  caseId: 'io.gnes-latency-bench.case',
  service: 'io.gnes-latency-bench.service',
  deployment: 'io.gnes-latency-bench.deployment'
} as const

/** The repository a run belongs to: the Actions repository, else the working directory's name. */
export function currentRepository(): string {
  return process.env.GITHUB_REPOSITORY || path.basename(process.cwd())
}

export function runLabels(runId: string, repository: string): Record<string, string> {
  return { [LABEL.tool]: 'true', [LABEL.runId]: runId, [LABEL.repository]: repository }
}

/** Engine API list filter for labels given as key=value pairs. */
export function labelFilter(labels: Record<string, string>): string {
  return JSON.stringify({ label: Object.entries(labels).map(([k, v]) => `${k}=${v}`) })
}
