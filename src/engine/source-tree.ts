import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import * as fs from 'node:fs'
import * as path from 'node:path'

/** A GNES source tree (a checkout, or an unpacked sdist) and what its content hashes to. */
export interface GnesSource {
  dir: string
  /** sha256 of every file that goes into the build: the cache key of its venv. */
  hash: string
  /** The checkout's commit when the tree is exactly that commit; null for a dirty or non-git tree. */
  commit: string | null
}

/** Build output, caches and VCS data: not part of what is built, and not copied into the build. */
const SKIPPED = new Set(['.git', 'build', 'dist', '.eggs', '.tox', '.venv', '__pycache__'])
const skipped = (name: string): boolean =>
  SKIPPED.has(name) || name.endsWith('.egg-info') || name.endsWith('.pyc')

function filesOf(root: string, rel = ''): string[] {
  return fs
    .readdirSync(path.join(root, rel), { withFileTypes: true })
    .filter(e => !skipped(e.name))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap(e => {
      const child = path.join(rel, e.name)
      return e.isDirectory() ? filesOf(root, child) : [child]
    })
}

function cleanCommit(dir: string): string | null {
  try {
    const git = (args: string[]) =>
      execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8', stdio: 'pipe' }).trim()
    return git(['status', '--porcelain']) === '' ? git(['rev-parse', 'HEAD']) : null
  } catch {
    return null
  }
}

/** Hashes the tree at `dir`: path, kind and content of each file, so any edit changes the key. */
export function readGnesSource(dir: string): GnesSource {
  const root = path.resolve(dir)
  const hash = createHash('sha256')
  for (const rel of filesOf(root)) {
    const file = path.join(root, rel)
    const stat = fs.lstatSync(file)
    const kind = stat.isSymbolicLink() ? 'l' : stat.mode & 0o111 ? 'x' : 'f'
    hash.update(`${rel}\0${kind}\0`)
    hash.update(stat.isSymbolicLink() ? fs.readlinkSync(file) : fs.readFileSync(file))
    hash.update('\0')
  }
  return { dir: root, hash: hash.digest('hex'), commit: cleanCommit(root) }
}

/** The files `readGnesSource` hashes, copied to `dest`: what pip builds from. */
export function copySourceTree(dir: string, dest: string): void {
  fs.cpSync(dir, dest, {
    recursive: true,
    filter: src => src === dir || !skipped(path.basename(src))
  })
}

/** The files `readGnesSource` hashes, as a build context's entries (a link by its target's content). */
export function sourceFiles(dir: string): { name: string; content: Buffer; mode: number }[] {
  const root = path.resolve(dir)
  return filesOf(root).flatMap(rel => {
    const file = path.join(root, rel)
    const stat = fs.statSync(file, { throwIfNoEntry: false })
    if (!stat?.isFile()) return []
    return [
      {
        name: rel.split(path.sep).join('/'),
        content: fs.readFileSync(file),
        mode: stat.mode & 0o777
      }
    ]
  })
}
