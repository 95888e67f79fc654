import ignore from '@balena/dockerignore'
import { createHash } from 'node:crypto'
import * as fs from 'node:fs'
import * as path from 'node:path'
import * as tar from 'tar-stream'

/**
 * A build context as `docker build` sends it: the files its `.dockerignore` leaves (Docker's own
 * rules, through @balena/dockerignore), the Dockerfile always among them, read and hashed once.
 */

/** One file of a context: its name in the context, where it is read from, its mode and size. */
export interface ContextEntry {
  name: string
  file: string
  mode: number
  size: number
}

export interface BuildContext {
  dir: string
  /** The Dockerfile's name inside the context. */
  dockerfile: string
  entries: ContextEntry[]
  bytes: number
  /** sha256 of every entry's name, mode and content: the same files, the same hash. */
  hash: string
  /** The ignore file that applied, or null. */
  ignoreFile: string | null
}

/** The name a Dockerfile outside its context travels under inside it. */
export const OUTSIDE_DOCKERFILE = '.gnes-latency-bench.Dockerfile'

/**
 * The ignore file of a build: `<Dockerfile>.dockerignore` beside the Dockerfile when there is
 * one (BuildKit reads it first), else the context's `.dockerignore`.
 */
export function ignoreFileOf(dir: string, dockerfile: string): string | null {
  for (const file of [`${dockerfile}.dockerignore`, path.join(dir, '.dockerignore')]) {
    if (fs.existsSync(file) && fs.statSync(file).isFile()) return file
  }
  return null
}

/** Docker's patterns, one a line; comments and blank lines skipped, `!` exceptions kept. */
export function ignorePatterns(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map(line => line.trim())
    .filter(line => line && !line.startsWith('#'))
}

/**
 * The context's files after the ignore rules. `.git` never goes (a commit would change every
 * hash), nor anything under `leaveOut` (the run's own output, written while it runs). An ignored
 * directory is skipped whole unless an exception (`!`) may bring something inside it back.
 */
function walk(dir: string, patterns: string[], leaveOut: readonly string[]): ContextEntry[] {
  const ig = ignore().add(patterns)
  const exceptions = patterns.some(p => p.startsWith('!'))
  const skipped = new Set(leaveOut.map(p => path.resolve(p)))
  const out: ContextEntry[] = []
  const visit = (rel: string): void => {
    for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const name = rel ? `${rel}/${entry.name}` : entry.name
      const file = path.join(dir, name)
      if (entry.name === '.git' || skipped.has(file)) continue
      if (entry.isDirectory()) {
        if (!ig.ignores(name) || exceptions) visit(name)
      } else if (entry.isFile() && !ig.ignores(name)) {
        const stat = fs.statSync(file)
        out.push({ name, file, mode: stat.mode & 0o777, size: stat.size })
      }
    }
  }
  visit('')
  return out
}

const byName = (a: ContextEntry, b: ContextEntry): number =>
  a.name < b.name ? -1 : a.name > b.name ? 1 : 0

/**
 * Reads a build context: `dir`'s files after its ignore file, with the Dockerfile at its place
 * inside the context (even when ignored, as Docker sends it) or, outside it, under a name of its
 * own; then hashes them.
 */
export function readBuildContext(
  dir: string,
  dockerfile: string,
  leaveOut: readonly string[] = []
): BuildContext {
  const root = path.resolve(dir)
  const file = path.resolve(root, dockerfile)
  const ignoreFile = ignoreFileOf(root, file)
  const patterns = ignoreFile ? ignorePatterns(fs.readFileSync(ignoreFile, 'utf8')) : []
  const entries = walk(root, patterns, leaveOut)
  const rel = path.relative(root, file)
  const inside = !rel.startsWith('..') && !path.isAbsolute(rel)
  const name = inside ? rel.split(path.sep).join('/') : OUTSIDE_DOCKERFILE
  if (!entries.some(e => e.name === name)) {
    entries.push({ name, file, mode: 0o644, size: fs.statSync(file).size })
  }
  entries.sort(byName)
  const hash = createHash('sha256')
  for (const e of entries) {
    hash.update(`${e.name}\n${e.mode}\n${e.size}\n`).update(fs.readFileSync(e.file))
  }
  const bytes = entries.reduce((sum, e) => sum + e.size, 0)
  return { dir: root, dockerfile: name, entries, bytes, hash: hash.digest('hex'), ignoreFile }
}

/** The context's tar, each file read from disk as the archive is consumed. */
export function contextTar(context: BuildContext): NodeJS.ReadableStream {
  const pack = tar.pack()
  void (async () => {
    try {
      for (const e of context.entries) {
        await new Promise<void>((resolve, reject) => {
          const sink = pack.entry({ name: e.name, mode: e.mode, size: e.size }, err =>
            err ? reject(err) : resolve()
          )
          fs.createReadStream(e.file).on('error', reject).pipe(sink)
        })
      }
      pack.finalize()
    } catch (err) {
      pack.destroy(err as Error)
    }
  })()
  // tar-stream's streamx Readable pipes like a Node stream; its typings do not say so.
  return pack as unknown as NodeJS.ReadableStream
}

/** A size in words: bytes, kB or MB. */
export function sizeText(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`
  if (bytes < 1e6) return `${(bytes / 1e3).toFixed(1)} kB`
  return `${(bytes / 1e6).toFixed(1)} MB`
}

/**
 * A run's build contexts, each read and hashed once: every deployment of the run (each pair of a
 * paired run) asks again, and the files do not change under a run. The run's own output
 * directories are left out of every context.
 */
export class BuildContexts {
  private readonly read = new Map<string, BuildContext>()

  constructor(private readonly leaveOut: readonly string[]) {}

  get(dir: string, dockerfile: string, log: (line: string) => void): BuildContext {
    const key = JSON.stringify([path.resolve(dir), path.resolve(dir, dockerfile)])
    let context = this.read.get(key)
    if (!context) {
      context = readBuildContext(dir, dockerfile, this.leaveOut)
      const ignored = context.ignoreFile ? ` after ${context.ignoreFile}` : ' (no .dockerignore)'
      log(
        `build context ${context.dir}: ${context.entries.length} file(s), ${sizeText(context.bytes)}${ignored}`
      )
      this.read.set(key, context)
    }
    return context
  }
}
