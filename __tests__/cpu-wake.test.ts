import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import {
  CPU_LATENCY_DEVICE,
  CpuWakeUnavailable,
  cpuidleDriver,
  holdCpusAwake,
  holdWithSudo
} from '../src/engine/cpu-wake'
import { keepCpusAwake } from '../src/pipeline/suite/cpus-awake'
import { quiet } from './helpers/log'
import { sleep } from './helpers/processes'

/** The kernel's effective request, in µs: what reading the device returns. */
function request(): number {
  const buf = Buffer.alloc(4)
  const fd = fs.openSync(CPU_LATENCY_DEVICE, 'r')
  try {
    fs.readSync(fd, buf, 0, 4, null)
  } finally {
    fs.closeSync(fd)
  }
  return buf.readInt32LE(0)
}

/**
 * How often CPU 0 has halted (its deepest idle state's count); null on a kernel without a cpuidle
 * driver (`current_driver` none), which keeps no such count.
 */
const halts = (): number | null => {
  const dir = '/sys/devices/system/cpu/cpu0/cpuidle'
  if (!fs.existsSync(dir)) return null
  const states = fs.readdirSync(dir).filter(s => s.startsWith('state'))
  return Number(fs.readFileSync(path.join(dir, states.sort().at(-1)!, 'usage'), 'utf8'))
}

const asRoot = process.getuid?.() === 0 && fs.existsSync(CPU_LATENCY_DEVICE)

/** A `sudo` that runs its command as this (root) user, as passwordless sudo does. */
function fakeSudo(dir: string, body = 'shift; exec "$@"'): string {
  const file = path.join(dir, 'sudo')
  fs.writeFileSync(file, `#!/bin/sh\n[ "$1" = -n ] || exit 9\n${body}\n`, { mode: 0o755 })
  return file
}

/** A file naming a cpuidle driver, for the device's mechanics on a kernel that has none. */
function driverFile(dir: string, name: string): string {
  const file = path.join(dir, 'current_driver')
  fs.writeFileSync(file, `${name}\n`)
  return file
}

/** A read-only sysfs attribute: opening it for writing is refused even to root (EACCES). */
const ROOT_ONLY = '/sys/kernel/uevent_seqnum'

describe('keeping the CPUs awake (the real /dev/cpu_dma_latency; as root)', () => {
  const onLinuxAsRoot = asRoot ? test : test.skip
  const driver = cpuidleDriver()
  let dir: string
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cpu-wake-'))))
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }))

  onLinuxAsRoot(
    'held in this process: the request is 0, read back as such; released, it is back',
    async () => {
      const before = request()
      const hold = await holdCpusAwake({ sudo: null, cpuidle: driverFile(dir, 'haltpoll') })
      try {
        expect(hold).toMatchObject({ via: 'process', request: 0, driver: 'haltpoll' })
        expect(request()).toBe(0)
      } finally {
        await hold.release()
      }
      expect(request()).toBe(before)
    }
  )

  ;(asRoot && driver !== null ? test : test.skip)(
    `this kernel's cpuidle driver (${driver}) takes the hold: no CPU halts while it lasts`,
    async () => {
      const hold = await holdCpusAwake({ sudo: null })
      try {
        expect(hold.driver).toBe(driver)
        const halted = halts()
        await sleep(300)
        expect(halts()).toBe(halted)
      } finally {
        await hold.release()
      }
    }
  )

  ;(driver === null ? test : test.skip)(
    'this kernel has no cpuidle driver: nothing is held and the result records false',
    async () => {
      const before = asRoot ? request() : null
      await expect(holdCpusAwake({ sudo: null })).rejects.toThrow(
        /no cpuidle driver \(\/sys\/devices\/system\/cpu\/cpuidle\/current_driver: none\)/
      )
      const warnings: string[] = []
      const awake = await keepCpusAwake('auto', { ...quiet, warn: m => warnings.push(m) })
      expect(awake.held).toBe(false)
      expect(warnings.join('\n')).toMatch(/cannot be held awake: this kernel has no cpuidle driver/)
      await expect(keepCpusAwake('true', quiet)).rejects.toThrow(/set keep-cpus-awake to auto/)
      if (asRoot) expect(request()).toBe(before)
    }
  )

  onLinuxAsRoot(
    'held through sudo -n by a helper, which reads it back and lets go when released',
    async () => {
      const before = request()
      const hold = await holdWithSudo(CPU_LATENCY_DEVICE, fakeSudo(dir))
      try {
        expect(hold).toMatchObject({ via: 'sudo', request: 0 })
        expect(request()).toBe(0)
      } finally {
        await hold.release()
      }
      expect(request()).toBe(before)
    }
  )

  test('a request the kernel reads back other than 0 is let go: the CPUs are not held', async () => {
    const cpuidle = driverFile(dir, 'acpi_idle')
    const marker = path.join(dir, 'released')
    const kept = fakeSudo(dir, `echo "held     100"; cat >/dev/null; touch ${marker}`)
    await expect(holdCpusAwake({ device: ROOT_ONLY, sudo: kept, cpuidle })).rejects.toThrow(
      /reads 100 µs with our request of 0 held: the kernel did not take it/
    )
    expect(fs.existsSync(marker)).toBe(true)
    // A helper that cannot read the request back holds it on the word of the write alone.
    const blind = fakeSudo(dir, 'echo "held "; exec cat >/dev/null')
    const hold = await holdCpusAwake({ device: ROOT_ONLY, sudo: blind, cpuidle })
    expect(hold).toMatchObject({ via: 'sudo', request: null, driver: 'acpi_idle' })
    await hold.release()
  })

  test('a sudo that wants a password, or none at all, is a reason, not a crash', async () => {
    const refusing = fakeSudo(dir, 'echo "sudo: a password is required" >&2; exit 1')
    await expect(holdWithSudo(CPU_LATENCY_DEVICE, refusing)).rejects.toThrow(
      /sudo -n exited with 1: sudo: a password is required/
    )
    await expect(holdWithSudo(CPU_LATENCY_DEVICE, path.join(dir, 'none'))).rejects.toThrow(
      /could not run \(ENOENT\)/
    )
  })

  test('keep-cpus-awake: auto warns and runs on; true fails naming the input; false holds nothing', async () => {
    const device = path.join(dir, 'no-such-device')
    const cpuidle = driverFile(dir, 'intel_idle')
    const warnings: string[] = []
    const log = { ...quiet, warn: (m: string) => warnings.push(m) }
    const auto = await keepCpusAwake('auto', log, { device, cpuidle })
    expect(auto.held).toBe(false)
    expect(warnings.join('\n')).toMatch(
      /keep-cpus-awake: the CPUs cannot be held awake: .*no-such-device.*ENOENT/
    )
    await expect(keepCpusAwake('true', quiet, { device, cpuidle })).rejects.toThrow(
      /keep-cpus-awake: .*no-such-device.*; set keep-cpus-awake to auto or false/
    )
    const off = await keepCpusAwake('false', log, { device, cpuidle })
    expect(off.held).toBe(false)
    expect(warnings).toHaveLength(1)
    await expect(holdCpusAwake({ device, cpuidle })).rejects.toBeInstanceOf(CpuWakeUnavailable)
  })

  test('a kernel whose driver is none, or that names none, holds nothing and touches no device', async () => {
    const device = path.join(dir, 'device')
    fs.writeFileSync(device, 'untouched')
    for (const cpuidle of [driverFile(dir, 'none'), path.join(dir, 'absent')]) {
      await expect(holdCpusAwake({ device, cpuidle, sudo: null })).rejects.toThrow(
        /no cpuidle driver/
      )
      const awake = await keepCpusAwake('auto', quiet, { device, cpuidle })
      expect(awake.held).toBe(false)
    }
    expect(fs.readFileSync(device, 'utf8')).toBe('untouched')
  })

  test('held in this process on a device it may write: recorded as held', async () => {
    const device = path.join(dir, 'device')
    fs.writeFileSync(device, Buffer.from([1, 2, 3, 4]))
    const awake = await keepCpusAwake('true', quiet, {
      device,
      cpuidle: driverFile(dir, 'haltpoll'),
      sudo: null
    })
    expect(awake.held).toBe(true)
    await awake.release()
  })
})
