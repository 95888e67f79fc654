import * as fs from 'node:fs'
import * as path from 'node:path'
import { checkInside, writeInside } from '../safe-write'
import { isReplaced } from './layout'

/**
 * The rendered site as a value: path in the history directory (forward slashes, see layout.ts) →
 * the file's bytes. Render makes it; a store applies it: files for a directory (`writeSite`),
 * blobs and tree edits for a branch.
 */
export type Site = Map<string, Buffer>

/**
 * Throws unless `rel` names a file inside the history directory: relative, no empty, `.` or `..`
 * segment. Names derive from case ids (slugs by schema); a branch, which has no real path to
 * resolve, is guarded by this regardless.
 */
export function checkSitePath(rel: string): string {
  const segments = rel.split('/')
  if (segments.some(s => s === '' || s === '.' || s === '..' || s.includes('\\'))) {
    throw new Error(`refusing to write ${rel} outside the history directory`)
  }
  return rel
}

/** Files below `dir`/`sub` as paths relative to `dir` (forward slashes); links are not followed. */
const filesUnder = (dir: string, sub: string): string[] =>
  fs.existsSync(path.join(dir, sub))
    ? fs
        .readdirSync(path.join(dir, sub), { withFileTypes: true, recursive: true })
        .filter(d => d.isFile())
        .map(d => path.relative(dir, path.join(d.parentPath, d.name)).split(path.sep).join('/'))
    : []

/**
 * Writes `site` into `dir`, never outside it (safe-write: no write follows a symbolic link out).
 * A `whole` site (rendered from the whole history) also removes the charts and month data files
 * it rewrites by name but no longer holds (`isReplaced`). Returns the absolute paths written.
 */
export function writeSite(dir: string, site: Site, whole = false): string[] {
  const written = [...site].map(([rel, bytes]) => writeInside(dir, rel, bytes))
  if (whole) {
    for (const rel of [...filesUnder(dir, 'charts'), ...filesUnder(dir, 'data')]) {
      if (isReplaced(rel) && !site.has(rel)) fs.rmSync(checkInside(dir, rel))
    }
  }
  return written
}
