import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import {
  CPU_LATENCY_DEVICE,
  CpuWakeUnavailable,
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

describe('keeping the CPUs awake (the real /dev/cpu_dma_latency; as root)', () => {
  const onLinuxAsRoot = asRoot ? test : test.skip
  let dir: string
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cpu-wake-'))))
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }))

  onLinuxAsRoot(
    'held in this process: the request is 0 and no CPU halts; released, it is back',
    async () => {
      const before = request()
      const hold = await holdCpusAwake({ sudo: null })
      try {
        expect(hold.via).toBe('process')
        expect(request()).toBe(0)
        const halted = halts()
        await sleep(300)
        expect(halts()).toBe(halted)
      } finally {
        await hold.release()
      }
      expect(request()).toBe(before)
    }
  )

  onLinuxAsRoot('held through sudo -n by a helper, which lets go when released', async () => {
    const before = request()
    const hold = await holdWithSudo(CPU_LATENCY_DEVICE, fakeSudo(dir))
    try {
      expect(hold.via).toBe('sudo')
      expect(request()).toBe(0)
    } finally {
      await hold.release()
    }
    expect(request()).toBe(before)
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
    const warnings: string[] = []
    const log = { ...quiet, warn: (m: string) => warnings.push(m) }
    const auto = await keepCpusAwake('auto', log, { device })
    expect(auto.held).toBe(false)
    expect(warnings.join('\n')).toMatch(
      /keep-cpus-awake: the CPUs cannot be held awake: .*no-such-device.*ENOENT/
    )
    await expect(keepCpusAwake('true', quiet, { device })).rejects.toThrow(
      /keep-cpus-awake: .*no-such-device.*; set keep-cpus-awake to auto or false/
    )
    const off = await keepCpusAwake('false', log, { device })
    expect(off.held).toBe(false)
    expect(warnings).toHaveLength(1)
    await expect(holdCpusAwake({ device })).rejects.toBeInstanceOf(CpuWakeUnavailable)
  })
})
