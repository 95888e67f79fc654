import { execFileSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { checkSupportedVersion } from '../../config/gnes-version'
import { LogTail } from '../log-tail'
import { ServiceProcess } from './process'

/** Pins that make GNES 0.0.4x build and import on today's Python (see docs/gnes-versions.md). */
const BUILD_PINS = ['cython<3', 'numpy<2', 'setuptools<81', 'wheel']
const RUNTIME_PINS = ['protobuf==3.20.3']

function cacheRoot(): string {
  return (
    process.env.GNES_BENCH_CACHE ??
    path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'gnes-latency-bench')
  )
}

/**
 * The interpreter binary itself: `python3` on PATH may be a launcher script (pyenv) that forks, and
 * the parent-death check of a tracked process needs to be the direct child of this process.
 */
function realInterpreter(python: string): string {
  try {
    return execFileSync(python, ['-c', 'import sys; print(sys.executable)'], {
      encoding: 'utf8'
    }).trim()
  } catch (err) {
    throw new Error(`cannot run ${python} to create the GNES venv: ${(err as Error).message}`)
  }
}

/**
 * Runs one provisioning step as a tracked process (like the services), so an interrupted suite
 * never leaves pip installing into a directory the next run will discard.
 */
async function run(
  python: string,
  cmd: string,
  args: string[],
  logFile: string,
  log: (line: string) => void
): Promise<void> {
  log(`$ ${cmd} ${args.join(' ')}`)
  const output = new LogTail(logFile)
  const code = await new ServiceProcess({ python, executable: cmd, args, output }).exited
  if (code !== 0)
    throw new Error(`${cmd} ${args.join(' ')} failed (exit ${code}):\n${output.text()}`)
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/**
 * Takes an exclusive lock file so two suites never build the same venv at once; a lock whose
 * owner died is taken over. Venvs are not relocatable, so build-then-rename is not an option.
 */
async function withLock<T>(lockFile: string, work: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      fs.writeFileSync(lockFile, String(process.pid), { flag: 'wx' })
      break
    } catch {
      // The owner may have released it between our attempt and this read: then just try again.
      const owner = Number(fs.existsSync(lockFile) ? fs.readFileSync(lockFile, 'utf8') : NaN)
      if (Number.isNaN(owner)) continue
      if (!owner || !pidAlive(owner)) fs.rmSync(lockFile, { force: true })
      else await sleep(1000)
    }
  }
  try {
    return await work()
  } finally {
    fs.rmSync(lockFile, { force: true })
  }
}

export interface GnesVenv {
  dir: string
  python: string
  gnes: string
}

/** A cached virtual environment with GNES `version`, created on first use and reused after. */
export async function ensureGnesVenv(
  version: string,
  log: (line: string) => void
): Promise<GnesVenv> {
  checkSupportedVersion(version)
  const root = cacheRoot()
  fs.mkdirSync(root, { recursive: true })
  const dir = path.join(root, `gnes-${version}`)
  const venv = { dir, python: path.join(dir, 'bin', 'python'), gnes: path.join(dir, 'bin', 'gnes') }
  const marker = path.join(dir, '.complete')
  if (fs.existsSync(marker)) return venv
  return withLock(`${dir}.lock`, async () => {
    if (fs.existsSync(marker)) return venv
    log(`provisioning GNES ${version} in ${dir} (once; later runs reuse it)`)
    fs.rmSync(dir, { recursive: true, force: true })
    const python = realInterpreter(process.env.GNES_BENCH_PYTHON ?? 'python3')
    const logFile = `${dir}.provision.log`
    const step = (cmd: string, args: string[]) => run(python, cmd, args, logFile, log)
    await step(python, ['-m', 'venv', dir])
    const pip = ['-m', 'pip', 'install', '--disable-pip-version-check', '-q']
    await step(venv.python, [...pip, ...BUILD_PINS])
    await step(venv.python, [...pip, '--no-build-isolation', `gnes==${version}`, ...RUNTIME_PINS])
    fs.writeFileSync(marker, JSON.stringify({ version, createdAt: new Date().toISOString() }))
    return venv
  })
}
