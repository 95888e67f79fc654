/**
 * The key of this job's pull-request comment: the `comment-key` input, which action.yml defaults to
 * the workflow's name, the job's id and, in a matrix of several jobs, the job's matrix values;
 * where no runner evaluated that default, the workflow and job from the environment.
 */
export function commentKey(input: string | null, env: NodeJS.ProcessEnv = process.env): string {
  if (input !== null) return input
  const parts = [env.GITHUB_WORKFLOW, env.GITHUB_JOB].filter(p => p !== undefined && p !== '')
  return parts.length ? parts.join(' / ') : 'gnes-latency-bench'
}
