import { execFileSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { checkSupportedVersion } from '../../config/gnes-version'
import { cacheRoot } from '../cache-dir'
import { LogTail } from '../log-tail'
import { ServiceProcess } from './process'
import { copySourceTree, type GnesSource } from '../source-tree'

/** Pins that make GNES 0.0.4x build and import on today's Python (see docs/gnes-versions.md). */
export const BUILD_PINS = ['cython<3', 'numpy<2', 'setuptools<81', 'wheel']
export const RUNTIME_PINS = ['protobuf==3.20.3']

/** Written last into a venv, with its GNES version: a venv without it was never finished. */
export const completeMarker = (dir: string): string => path.join(dir, '.complete')

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
  /** The installed distribution's version, as pip recorded it. */
  version: string
}

/**
 * A cached venv in `<cache>/<name>`, built once (the build pins, then GNES by `install`, which
 * gets pip with the flags and runtime pins every install needs) and reused after; its GNES version
 * is read from what pip installed.
 */
async function ensureVenv(
  name: string,
  what: string,
  install: (pip: (args: string[]) => Promise<void>) => Promise<void>,
  log: (line: string) => void
): Promise<GnesVenv> {
  const root = cacheRoot()
  fs.mkdirSync(root, { recursive: true })
  const dir = path.join(root, name)
  const paths = {
    dir,
    python: path.join(dir, 'bin', 'python'),
    gnes: path.join(dir, 'bin', 'gnes')
  }
  const marker = completeMarker(dir)
  const built = (): GnesVenv | null =>
    fs.existsSync(marker)
      ? {
          ...paths,
          version: (JSON.parse(fs.readFileSync(marker, 'utf8')) as { version: string }).version
        }
      : null
  const cached = built()
  if (cached) return cached
  return withLock(`${dir}.lock`, async () => {
    const raced = built()
    if (raced) return raced
    log(`provisioning ${what} in ${dir} (once; later runs reuse it)`)
    fs.rmSync(dir, { recursive: true, force: true })
    const python = realInterpreter(process.env.GNES_BENCH_PYTHON ?? 'python3')
    const logFile = `${dir}.provision.log`
    const step = (cmd: string, args: string[]) => run(python, cmd, args, logFile, log)
    await step(python, ['-m', 'venv', dir])
    const pip = ['-m', 'pip', 'install', '--disable-pip-version-check', '-q']
    await step(paths.python, [...pip, ...BUILD_PINS])
    await install(args =>
      step(paths.python, [...pip, '--no-build-isolation', ...args, ...RUNTIME_PINS])
    )
    const version = execFileSync(
      paths.python,
      ['-c', "import importlib.metadata as m; print(m.version('gnes'))"],
      { encoding: 'utf8' }
    ).trim()
    fs.writeFileSync(marker, JSON.stringify({ version, createdAt: new Date().toISOString() }))
    return { ...paths, version }
  })
}

/** A cached virtual environment with GNES `version` from PyPI. */
export async function ensureGnesVenv(
  version: string,
  log: (line: string) => void
): Promise<GnesVenv> {
  checkSupportedVersion(version)
  return ensureVenv(`gnes-${version}`, `GNES ${version}`, pip => pip([`gnes==${version}`]), log)
}

/**
 * A cached virtual environment with GNES installed from the source tree at `source`, keyed by the
 * tree's content: an unchanged commit reuses its venv, any edit builds a new one. pip builds in a
 * copy, so the checkout gains no build/ or egg-info.
 */
export async function ensureSourceVenv(
  source: GnesSource,
  log: (line: string) => void
): Promise<GnesVenv> {
  const what = `GNES from ${source.dir} (content ${source.hash.slice(0, 12)})`
  return ensureVenv(
    `gnes-src-${source.hash.slice(0, 16)}`,
    what,
    async pip => {
      const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'gnes-src-'))
      try {
        copySourceTree(source.dir, copy)
        await pip([copy])
      } finally {
        fs.rmSync(copy, { recursive: true, force: true })
      }
    },
    log
  )
}
