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
 * no setting outlives the suite. Only a cpuidle driver reads the request: without one (a kernel
 * whose `current_driver` is `none`, as in a Firecracker guest) idle CPUs halt whatever is asked,
 * so a hold is taken only where a driver is there, and only when the kernel reads back 0.
 */

export const CPU_LATENCY_DEVICE = '/dev/cpu_dma_latency'

/** The cpuidle driver in use, or `none`. */
export const CPUIDLE_DRIVER = '/sys/devices/system/cpu/cpuidle/current_driver'

export type KeepCpusAwake = 'auto' | 'true' | 'false'

export interface CpuWakeHold {
  /** How the request is held: by this process, or by a helper under `sudo -n`. */
  readonly via: 'process' | 'sudo'
  /** The kernel's request in µs as read back once held; null where it could not be read. */
  readonly request: number | null
  release(): Promise<void>
}

/** Why the request could not be held. */
export class CpuWakeUnavailable extends Error {}

const SUDO_HOLD_MS = 10_000

/** The kernel's request in µs: what reading the device returns (a binary s32); null unreadable. */
function readRequest(device: string): number | null {
  try {
    const fd = fs.openSync(device, 'r')
    try {
      const buf = Buffer.alloc(4)
      return fs.readSync(fd, buf, 0, 4, null) === 4 ? buf.readInt32LE(0) : null
    } finally {
      fs.closeSync(fd)
    }
  } catch {
    return null
  }
}

/** The cpuidle driver the kernel idles its CPUs with; null when it has none. */
export function cpuidleDriver(file = CPUIDLE_DRIVER): string | null {
  try {
    const driver = fs.readFileSync(file, 'utf8').trim()
    return driver === '' || driver === 'none' ? null : driver
  } catch {
    return null
  }
}

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
    request: readRequest(device),
    async release() {
      if (open) fs.closeSync(fd)
      open = false
    }
  }
}

/**
 * Holds the request in a helper under `sudo -n` (a GitHub-hosted runner's user may sudo without a
 * password): a shell opens the device, writes 0, says `held` with the request it reads back
 * (nothing where `od` cannot read it) and becomes `cat` on our pipe, so the request lasts until
 * we close the pipe or die.
 */
export function holdWithSudo(device: string, sudo: string): Promise<CpuWakeHold> {
  const script =
    'exec 3>"$1" && echo 0 >&3 && echo "held $(od -An -td4 -N4 "$1" 2>/dev/null)" && exec cat >/dev/null'
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
    let stdout = ''
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString()
      const said = /^held\s*(-?\d+)?\s*$/m.exec(stdout)
      if (!said) return
      clearTimeout(timer)
      resolve({
        via: 'sudo',
        request: said[1] === undefined ? null : Number(said[1]),
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
  /** The file naming the cpuidle driver (tests point elsewhere). */
  cpuidle?: string
}

export interface CpusHeldAwake extends CpuWakeHold {
  /** The cpuidle driver that reads the request. */
  readonly driver: string
}

/** The request held in this process, else through `sudo -n`; throws CpuWakeUnavailable. */
async function hold(device: string, sudo: string | null): Promise<CpuWakeHold> {
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

/**
 * Holds every CPU awake where the kernel takes it: a cpuidle driver reads the request, the request
 * is held (in this process where it may write the device, else through `sudo -n` where a `sudo`
 * is given) and the kernel reads back 0 where it lets the device be read. Throws
 * CpuWakeUnavailable saying why not, holding nothing.
 */
export async function holdCpusAwake(options: CpuWakeOptions = {}): Promise<CpusHeldAwake> {
  const device = options.device ?? CPU_LATENCY_DEVICE
  const driverFile = options.cpuidle ?? CPUIDLE_DRIVER
  const driver = cpuidleDriver(driverFile)
  if (driver === null) {
    throw new CpuWakeUnavailable(
      `this kernel has no cpuidle driver (${driverFile}: none), so its idle CPUs halt whatever wake-up latency is requested`
    )
  }
  const held = await hold(device, options.sudo === undefined ? 'sudo' : options.sudo)
  if (held.request !== null && held.request !== 0) {
    await held.release()
    throw new CpuWakeUnavailable(
      `${device} reads ${held.request} µs with our request of 0 held: the kernel did not take it`
    )
  }
  return { ...held, driver }
}
