import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import * as fs from 'node:fs'

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
 * Linux's parent-death signal: if this Node process is SIGKILLed, the kernel kills the service
 * too, so not even an uncatchable kill leaves orphans. The ppid check closes the race where the
 * parent dies before prctl runs.
 */
const PDEATHSIG_SHIM =
  'import ctypes,os,signal,sys\n' +
  'ctypes.CDLL(None).prctl(1, signal.SIGKILL)\n' +
  'if os.getppid() != int(sys.argv[1]): sys.exit(1)\n' +
  'os.execvp(sys.argv[2], sys.argv[2:])'

export interface ServiceProcessOptions {
  name: string
  python: string
  executable: string
  args: string[]
  logFile: string
  readyPattern?: RegExp
  env?: NodeJS.ProcessEnv
  /** Keep all of stdout in memory for `output()` (the load client's reports). */
  captureStdout?: boolean
}

const TAIL_LINES = 20

/** One child process with its log on disk, the last lines in memory and a readiness signal. */
export class ServiceProcess {
  readonly name: string
  readonly child: ChildProcess
  readonly exited: Promise<number | null>
  readonly ready: Promise<void>
  private tailLines: string[] = []
  private readyFlag = false
  private partial = ''
  private stdout: Buffer[] = []

  constructor(o: ServiceProcessOptions) {
    this.name = o.name
    const log = fs.createWriteStream(o.logFile, { flags: 'a' })
    this.child = spawn(
      o.python,
      ['-c', PDEATHSIG_SHIM, String(process.pid), o.executable, ...o.args],
      { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...o.env } }
    )
    live.add(this.child)
    let resolveReady: () => void = () => undefined
    this.ready = o.readyPattern ? new Promise(r => (resolveReady = r)) : Promise.resolve()
    const markReady = () => {
      this.readyFlag = true
      resolveReady()
    }
    const onData = (chunk: Buffer) => {
      log.write(chunk)
      const lines = (this.partial + chunk.toString()).split('\n')
      this.partial = lines.pop() ?? ''
      for (const line of lines) {
        if (o.readyPattern?.test(line)) markReady()
        this.tailLines.push(line)
      }
      if (this.tailLines.length > TAIL_LINES)
        this.tailLines.splice(0, this.tailLines.length - TAIL_LINES)
    }
    this.child.stdout!.on('data', (chunk: Buffer) => {
      if (o.captureStdout) this.stdout.push(chunk)
      onData(chunk)
    })
    this.child.stderr!.on('data', onData)
    this.exited = new Promise(resolve => {
      this.child.on('error', err => {
        this.tailLines.push(`cannot start: ${err.message}`)
        live.delete(this.child)
        resolve(null)
      })
      this.child.on('exit', code => {
        live.delete(this.child)
        log.end()
        resolve(code)
      })
    })
  }

  tail(): string {
    return [...this.tailLines, this.partial].filter(l => l.trim() !== '').join('\n')
  }

  /** Everything the process wrote to stdout, once it has exited (with `captureStdout`). */
  async output(): Promise<string> {
    await this.exited
    const out = this.child.stdout!
    if (!out.readableEnded && !out.destroyed) await once(out, 'close')
    return Buffer.concat(this.stdout).toString()
  }

  get isReady(): boolean {
    return this.readyFlag
  }

  get running(): boolean {
    return live.has(this.child)
  }

  /** SIGTERM to the group, then SIGKILL after `graceMs`; resolves once the process is gone. */
  async stop(graceMs = 5000): Promise<void> {
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
