import { spawn } from 'node:child_process'
import * as fs from 'node:fs'

/**
 * Keeps every CPU of this host awake while a suite runs, through the kernel's PM QoS CPU latency
 * request (Documentation/power/pm_qos_interface.rst): while a process holds
 * /dev/cpu_dma_latency open with 0 written to it, idle CPUs poll instead of halting. On a virtual
 * machine a halted virtual CPU is woken by an interrupt through the hypervisor, and how long that
 * takes shifts from one spell to the next; a polling CPU sees a wake-up at once and needs no
 * interrupt. This is what latency benchmarks (cyclictest, tuned's latency-performance profile) do.
 * The request ends when the file is closed, which the kernel also does when the holder dies, so
 * no setting outlives the suite.
 */

export const CPU_LATENCY_DEVICE = '/dev/cpu_dma_latency'

export type KeepCpusAwake = 'auto' | 'true' | 'false'

export interface CpuWakeHold {
  /** How the request is held: by this process, or by a helper under `sudo -n`. */
  readonly via: 'process' | 'sudo'
  release(): Promise<void>
}

/** Why the request could not be held. */
export class CpuWakeUnavailable extends Error {}

const SUDO_HOLD_MS = 10_000

/** Holds the request in this process: needs write access to the device (root). */
function holdInProcess(device: string): CpuWakeHold {
  // Write-only and never created: a missing device must not become a file.
  const fd = fs.openSync(device, fs.constants.O_WRONLY)
  try {
    // The kernel takes a binary s32 of exactly four bytes: 0 µs of wake-up latency.
    fs.writeSync(fd, Buffer.alloc(4))
  } catch (err) {
    fs.closeSync(fd)
    throw err
  }
  let open = true
  return {
    via: 'process',
    async release() {
      if (open) fs.closeSync(fd)
      open = false
    }
  }
}

/**
 * Holds the request in a helper under `sudo -n` (a GitHub-hosted runner's user may sudo without a
 * password): a shell opens the device, writes 0 and becomes `cat` on our pipe, so the request
 * lasts until we close the pipe or die.
 */
export function holdWithSudo(device: string, sudo: string): Promise<CpuWakeHold> {
  const script = 'exec 3>"$1" && echo 0 >&3 && echo held && exec cat >/dev/null'
  const child = spawn(sudo, ['-n', 'sh', '-c', script, 'sh', device], {
    stdio: ['pipe', 'pipe', 'pipe']
  })
  const exited = new Promise<void>(resolve => {
    child.on('exit', () => resolve())
    child.on('error', () => resolve())
  })
  let stderr = ''
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  return new Promise((resolve, reject) => {
    const fail = (why: string): void => {
      child.kill()
      reject(new CpuWakeUnavailable(why))
    }
    const timer = setTimeout(() => fail(`${sudo} -n did not answer within 10 s`), SUDO_HOLD_MS)
    child.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer)
      reject(new CpuWakeUnavailable(`${sudo} could not run (${err.code ?? err.message})`))
    })
    child.on('exit', code => {
      clearTimeout(timer)
      const first = stderr.trim().split('\n')[0]
      reject(new CpuWakeUnavailable(`${sudo} -n exited with ${code}${first ? `: ${first}` : ''}`))
    })
    child.stdout.on('data', (d: Buffer) => {
      if (!d.toString().includes('held')) return
      clearTimeout(timer)
      resolve({
        via: 'sudo',
        async release() {
          child.stdin.end()
          await exited
        }
      })
    })
  })
}

export interface CpuWakeOptions {
  /** The PM QoS device (tests point elsewhere). */
  device?: string
  /** The sudo to try when the device is root's; null tries none. */
  sudo?: string | null
}

/**
 * Holds every CPU awake: in this process where it may write the device, else through `sudo -n`
 * where a `sudo` is given; throws CpuWakeUnavailable saying why neither worked.
 */
export async function holdCpusAwake(options: CpuWakeOptions = {}): Promise<CpuWakeHold> {
  const device = options.device ?? CPU_LATENCY_DEVICE
  const sudo = options.sudo === undefined ? 'sudo' : options.sudo
  try {
    return holdInProcess(device)
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code !== 'EACCES' && code !== 'EPERM') {
      throw new CpuWakeUnavailable(`${device}: ${(err as Error).message}`)
    }
    if (!sudo) throw new CpuWakeUnavailable(`${device} is writable by root only`)
    try {
      return await holdWithSudo(device, sudo)
    } catch (e) {
      throw new CpuWakeUnavailable(
        `${device} is writable by root only, and ${(e as Error).message}`
      )
    }
  }
}
