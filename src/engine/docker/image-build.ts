import type Docker from 'dockerode'
import { InputError } from '../../config/input-error'
import { tarOf } from './archive'
import { statusOf } from './client'

/** Pulls and builds through the Engine API: their streams, failures and the log they leave. */

export const badInput = (input: string, value: string, why: string): InputError =>
  new InputError(`Invalid input:\n  input '${input}' = '${value}': ${why}`)

export async function imageExists(docker: Docker, ref: string): Promise<boolean> {
  try {
    await docker.getImage(ref).inspect()
    return true
  } catch (err) {
    if (statusOf(err) === 404) return false
    throw err
  }
}

/** The colour codes a build's stream wraps its stderr lines in. */
const COLOUR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g')

/** Follows a pull or build stream; logs progress sparsely; rejects on an error event. */
export function follow(
  docker: Docker,
  stream: NodeJS.ReadableStream,
  log: (line: string) => void,
  tail: string[]
): Promise<void> {
  let lastLog = 0
  return new Promise((resolve, reject) => {
    docker.modem.followProgress(
      stream,
      (err: Error | null, events: { error?: string }[]) => {
        const failed = err?.message ?? events.find(e => e.error)?.error
        if (failed) reject(new Error(failed.trim()))
        else resolve()
      },
      (e: { stream?: string; status?: string; id?: string; progress?: string }) => {
        const line = (e.stream ?? [e.id, e.status, e.progress].filter(Boolean).join(' '))
          .replace(COLOUR, '')
          .trim()
        if (!line) return
        tail.push(line)
        if (tail.length > 40) tail.shift()
        // Layer progress arrives many times a second; steps and completions are what a log needs.
        const now = Date.now()
        if (!e.progress || now - lastLog > 5000) {
          lastLog = now
          log(line)
        }
      }
    )
  })
}

export async function pull(
  docker: Docker,
  ref: string,
  input: string,
  log: (line: string) => void
): Promise<void> {
  log(`pulling ${ref}`)
  const tail: string[] = []
  try {
    await follow(docker, await docker.pull(ref), log, tail)
  } catch (err) {
    throw badInput(
      input,
      ref,
      `image not found locally and the pull failed: ${(err as Error).message}`
    )
  }
}

/**
 * A build that failed: what was built, the step that failed (BuildKit names it; the classic
 * builder's is its last `Step N/M`) and the build's last lines, which hold the cause (a missing
 * compiler, an unreachable index, a syntax error in a Dockerfile).
 */
export function buildFailure(
  what: string,
  message: string,
  tail: readonly string[],
  failedStep: string | null = null
): Error {
  const step = failedStep ?? [...tail].reverse().find(line => /^Step \d+\/\d+ :/.test(line))
  const output = tail.length ? `\nlast lines of the build:\n${tail.join('\n')}` : ''
  return new Error(
    `building ${what} failed${step ? ` at ${step}` : ''}: ${message.trim()}${output}`
  )
}

export async function build(
  docker: Docker,
  files: { name: string; content: Buffer; mode?: number }[],
  options: Docker.ImageBuildOptions,
  what: string,
  log: (line: string) => void
): Promise<void> {
  log(`building ${options.t} (${what})`)
  const tail: string[] = []
  try {
    // forcerm: a failed step's container is removed too, so a broken build leaves nothing behind.
    const stream = await docker.buildImage(tarOf(files), { ...options, rm: true, forcerm: true })
    await follow(docker, stream, log, tail)
  } catch (err) {
    throw buildFailure(what, (err as Error).message, tail)
  }
}

/** The base to build on: on the daemon, or pulled. */
export async function ensureBase(docker: Docker, base: string, log: (line: string) => void) {
  if (!(await imageExists(docker, base))) await pull(docker, base, 'base-image', log)
}
