import * as fs from 'node:fs'
import * as path from 'node:path'

/**
 * Writes that stay inside their directory. A path compared as a string is not enough: a
 * subdirectory that is a symbolic link (made by hand, or checked out from a history branch)
 * would carry a write anywhere. Every directory on the way is resolved to its real path and must
 * lie inside the real root, and the file itself must not be a link.
 */

const within = (root: string, p: string): boolean => p === root || p.startsWith(root + path.sep)

/** The real path of `p`'s deepest existing ancestor (`p` itself when it exists). */
function realExisting(p: string): string {
  for (let at = p; ; at = path.dirname(at)) {
    try {
      return fs.realpathSync(at)
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || path.dirname(at) === at) throw err
    }
  }
}

/**
 * Throws unless `file` lies inside `root` with every link on its way resolved; `file` itself may
 * not be a link. Returns the absolute path.
 */
export function checkInside(root: string, file: string): string {
  const top = path.resolve(root)
  const abs = path.resolve(top, file)
  const real = realExisting(top)
  if (!within(top, abs)) throw new Error(`refusing to write ${file} outside ${top}`)
  const reached = realExisting(path.dirname(abs))
  if (!within(real, reached)) {
    throw new Error(
      `refusing to write ${abs}: a symbolic link on its way leads to ${reached}, outside ${top}`
    )
  }
  if (fs.lstatSync(abs, { throwIfNoEntry: false })?.isSymbolicLink()) {
    throw new Error(`refusing to write ${abs}: it is a symbolic link`)
  }
  return abs
}

/** Writes `content` to `file` under `root`, creating its directories, never outside `root`. */
export function writeInside(root: string, file: string, content: string | Buffer): string {
  const abs = checkInside(root, file)
  fs.mkdirSync(path.dirname(abs), { recursive: true })
  // The directories exist now: resolved once more, so none created through a link goes unseen.
  checkInside(root, abs)
  fs.writeFileSync(abs, content)
  return abs
}
