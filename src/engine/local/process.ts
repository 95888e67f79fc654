import { spawn, type ChildProcess } from 'node:child_process'
import { STOP_GRACE_MS } from '../lifecycle'
import type { LogTail } from '../log-tail'
import { groupEnded, groupStarted, RUN_MARK } from './process-groups'

/**
 * Every process the local engine starts, so a last-chance exit hook can kill them all. Each runs
 * in its own process group (`detached`), which lets a group kill reach anything it forks, and a
 * terminal's Ctrl-C reaches only us, so teardown stays in our hands.
 */
const live = new Set<ChildProcess>()

process.on('exit', () => {
  for (const child of live) killGroup(child, 'SIGKILL')
})

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return
  try {
    process.kill(-child.pid, signal)
  } catch {
    // Already gone.
  }
}

/**
 * At most this many services of this process start at once (spawned, not yet ready). A start wave
 * of many services (the topology bound allows 64 instances) would otherwise put them all on the
 * CPUs together and starve this process, leaving a signal unanswered for seconds.
 */
const MAX_STARTING = 8
let starting = 0
const waiting: (() => void)[] = []

/**
 * Waits for a start slot and returns the function that gives it back (once ready, or gone); a
 * slot given back goes straight to the next waiter.
 */
function startSlot(): Promise<() => void> {
  const grant = (): (() => void) => {
    let done = false
    return () => {
      if (done) return
      done = true
      const next = waiting.shift()
      if (next) next()
      else starting--
    }
  }
  if (starting < MAX_STARTING) {
    starting++
    return Promise.resolve(grant())
  }
  return new Promise(resolve => waiting.push(() => resolve(grant())))
}

/**
 * A start slot for `instance` of a deployment, refused once that deployment is being removed: a
 * start that waited for its slot must not spawn after the removal stopped what was there.
 */
export async function deploymentSlot(
  instance: string,
  removed: () => boolean
): Promise<() => void> {
  const release = await startSlot()
  if (!removed()) return release
  release()
  throw new Error(`${instance}: the deployment was removed while it started`)
}

/**
 * Linux's parent-death signal: if this Node process is SIGKILLed, the kernel kills the service
 * too, so not even an uncatchable kill leaves orphans. The ppid check closes the race where the
 * parent dies before prctl runs.
 */
const PDEATHSIG_SHIM =
  'import ctypes,os,signal,sys\n' +
  'ctypes.CDLL(None).prctl(1, signal.SIGKILL)\n' +
  'if os.getppid() != int(sys.argv[1]): sys.exit(1)\n' +
  'os.execvp(sys.argv[2], sys.argv[2:])'

interface ServiceProcessOptions {
  /**
   * The run of a service: its environment carries the run's mark and its group is recorded. A
   * provisioning step belongs to no run.
   */
  runId?: string
  python: string
  executable: string
  args: string[]
  /** Receives stdout and stderr; it ends when the process has exited. */
  output: LogTail
  env?: NodeJS.ProcessEnv
  cwd?: string
}

/** One child process, its output piped into a LogTail. */
export class ServiceProcess {
  readonly child: ChildProcess
  /** The exit code (null when killed by a signal or it could not start). */
  readonly exited: Promise<number | null>

  constructor(o: ServiceProcessOptions) {
    this.child = spawn(
      o.python,
      ['-c', PDEATHSIG_SHIM, String(process.pid), o.executable, ...o.args],
      {
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, ...o.env, ...(o.runId ? { [RUN_MARK]: o.runId } : {}) },
        cwd: o.cwd
      }
    )
    live.add(this.child)
    if (this.child.pid !== undefined && o.runId) groupStarted(this.child.pid, o.runId)
    this.child.stdout!.pipe(o.output, { end: false })
    this.child.stderr!.pipe(o.output, { end: false })
    this.exited = new Promise(resolve => {
      this.child.on('error', err => {
        o.output.note(`cannot start: ${err.message}`)
        this.gone()
        o.output.finish()
        resolve(null)
      })
      // 'close' comes after both pipes drained, so the output is complete when it ends.
      this.child.on('close', code => {
        this.gone()
        o.output.finish()
        resolve(code)
      })
    })
  }

  private gone(): void {
    live.delete(this.child)
    if (this.child.pid !== undefined) groupEnded(this.child.pid)
  }

  get running(): boolean {
    return live.has(this.child)
  }

  /** SIGTERM to the group, then SIGKILL after `graceMs`; resolves once the process is gone. */
  async stop(graceMs = STOP_GRACE_MS): Promise<void> {
    if (!this.running) return
    killGroup(this.child, 'SIGTERM')
    let timer: NodeJS.Timeout | undefined
    const killed = new Promise<void>(resolve => {
      timer = setTimeout(() => {
        killGroup(this.child, 'SIGKILL')
        resolve()
      }, graceMs)
    })
    await Promise.race([this.exited, killed])
    clearTimeout(timer)
    await this.exited
  }
}
