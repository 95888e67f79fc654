import { spawn } from 'node:child_process'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { unsupportedVersion } from '../../config/gnes-version'

/** Pins that make GNES 0.0.4x build and import on today's Python (see docs/gnes-versions.md). */
const BUILD_PINS = ['cython<3', 'numpy<2', 'setuptools<81', 'wheel']
const RUNTIME_PINS = ['protobuf==3.20.3']

export function cacheRoot(): string {
  return (
    process.env.GNES_BENCH_CACHE ??
    path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'gnes-latency-bench')
  )
}

export function checkSupportedVersion(version: string): void {
  const reason = unsupportedVersion(version)
  if (reason) throw new Error(`gnes-version ${version} is not supported: ${reason}`)
}

function run(cmd: string, args: string[], log: (line: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] })
    let tail = ''
    const keep = (chunk: Buffer) => {
      tail = (tail + chunk.toString()).slice(-4000)
    }
    child.stdout.on('data', keep)
    child.stderr.on('data', keep)
    child.on('error', err => reject(new Error(`cannot run ${cmd}: ${err.message}`)))
    child.on('exit', code => {
      if (code === 0) return resolve()
      reject(new Error(`${cmd} ${args.join(' ')} failed (exit ${code}):\n${tail}`))
    })
    log(`$ ${cmd} ${args.join(' ')}`)
  })
}

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms))

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
      const owner = Number(fs.readFileSync(lockFile, 'utf8'))
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
    const python = process.env.GNES_BENCH_PYTHON ?? 'python3'
    await run(python, ['-m', 'venv', dir], log)
    const pip = [venv.python, '-m', 'pip', 'install', '--disable-pip-version-check', '-q']
    await run(pip[0], [...pip.slice(1), ...BUILD_PINS], log)
    await run(
      pip[0],
      [...pip.slice(1), '--no-build-isolation', `gnes==${version}`, ...RUNTIME_PINS],
      log
    )
    fs.writeFileSync(marker, JSON.stringify({ version, createdAt: new Date().toISOString() }))
    return venv
  })
}
