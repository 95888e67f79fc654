import type Docker from 'dockerode'
import { Writable } from 'node:stream'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Healthcheck } from '../../topology/http-schema'
import { withDeadline } from '../deadline'
import { ServiceFailure } from '../types'
import { healthOf, nextCheckSec, type CheckRun } from './health-schedule'

/**
 * A container's health check, run by the engine through the Engine API's exec until the container
 * is ready, and never after: Docker's own HEALTHCHECK would keep spawning it in the container
 * every interval during the measured windows, noise in them.
 */

/** What every container is created with: Docker runs no check in it, its image's own included. */
export const NO_HEALTHCHECK: Docker.HealthConfig = { Test: ['NONE'] }

/** Characters of the check's last output a failure quotes. */
const OUTPUT_CHARS = 1000
/** How often a finished check's exit code is asked for, and for how long at most. */
const EXIT_POLL_MS = 20
const EXIT_POLLS = 50

/** The health check's last run, for a failure: its exit code and (the end of) its output. */
export function lastCheck(last: CheckRun): string {
  const output = last.output.trim().slice(-OUTPUT_CHARS)
  const ended = last.exitCode === null ? 'timed out' : `exited ${last.exitCode}`
  return `its health check ${ended}${output ? `: ${output}` : ' without output'}`
}

/** The check's argv in the container: CMD as written, CMD-SHELL through the shell. */
export const checkArgv = (test: readonly string[]): string[] =>
  test[0] === 'CMD-SHELL' ? ['/bin/sh', '-c', test[1]] : test.slice(1)

/** A sink keeping the last OUTPUT_CHARS characters written to it. */
function tail(): { sink: Writable; text: () => string } {
  let text = ''
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text = (text + chunk.toString('utf8')).slice(-OUTPUT_CHARS)
      done()
    }
  })
  return { sink, text: () => text }
}

/** The exit code of an exec whose output ended; -1 when the daemon does not tell it in time. */
async function exitCodeOf(exec: Docker.Exec): Promise<number> {
  for (let poll = 0; poll < EXIT_POLLS; poll++) {
    const info = await exec.inspect()
    if (!info.Running && info.ExitCode !== null) return info.ExitCode
    await sleep(EXIT_POLL_MS)
  }
  return -1
}

/**
 * One run of the check in the container, within its timeout. A check past its timeout is left to
 * finish (the Engine API cannot kill an exec) and counts as failed. Null when the container no
 * longer runs: its exit is the failure to tell.
 */
async function runCheck(
  container: Docker.Container,
  h: Healthcheck,
  startSec: number
): Promise<CheckRun | null> {
  const output = tail()
  try {
    const exec = await container.exec({
      Cmd: checkArgv(h.test),
      AttachStdout: true,
      AttachStderr: true
    })
    const stream = await exec.start({ hijack: true, stdin: false })
    container.modem.demuxStream(stream, output.sink, output.sink)
    const ended = new Promise<boolean>(resolve => {
      for (const event of ['end', 'close', 'error']) stream.once(event, () => resolve(true))
    })
    // `ended` never rejects: a rejection is the timeout.
    const within = withDeadline(ended, h.timeoutSec * 1000, () => new Error('timed out'))
    const done = await within.catch(() => false)
    if (!done) {
      stream.destroy()
      return { startSec, exitCode: null, output: output.text() }
    }
    return { startSec, exitCode: await exitCodeOf(exec), output: output.text() }
  } catch (err) {
    const running = await container.inspect().then(
      i => i.State.Running,
      () => false
    )
    if (!running) return null
    return {
      startSec,
      exitCode: -1,
      output: `the daemon did not run it: ${(err as Error).message}`
    }
  }
}

/**
 * Runs the check on Docker's schedule (health-schedule.ts) from `startedMs` (performance.now() at
 * the container's start) until it passes; rejects with a ServiceFailure naming `instance` and the
 * last check's output once the runs make the container unhealthy. Stops once `until` settles (the
 * container's exit) or the container stops running, then stays pending: the exit is reported as
 * such.
 */
export async function untilHealthy(
  container: Docker.Container,
  instance: string,
  h: Healthcheck,
  startedMs: number,
  until: Promise<unknown>
): Promise<void> {
  let over = false
  const settled = until.then(
    () => (over = true),
    () => (over = true)
  )
  const now = () => (performance.now() - startedMs) / 1000
  const runs: CheckRun[] = []
  let endSec: number | null = null
  while (!over) {
    const wait = nextCheckSec(h, endSec) - now()
    if (wait > 0) await Promise.race([sleep(wait * 1000, undefined, { ref: false }), settled])
    if (over) break
    const run = await runCheck(container, h, now())
    if (!run || over) break
    runs.push(run)
    endSec = now()
    const health = healthOf(h, runs)
    if (health === 'healthy') return
    if (health === 'unhealthy') {
      throw new ServiceFailure(instance, `is unhealthy: ${lastCheck(run)}`, '')
    }
  }
  return new Promise(() => undefined)
}
