import * as fs from 'node:fs'
import * as path from 'node:path'
import { resetAdvice } from './compose/keys'
import type { ContainerService } from './http-schema'

/**
 * The files a topology mounts, resolved and held to the checkout: a bind mount's source (a file or
 * directory, relative to the topology file) is followed through every symbolic link, and must
 * exist inside the checkout (the git work tree holding the file, else the file's directory) and
 * not be a socket (the Docker socket hands a service the host). Anything else stays outside.
 */
export interface MountProblem {
  where: string
  msg: string
}

/** The git work tree holding `dir`, else `dir` itself. */
export function checkoutOf(dir: string): string {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    if (fs.existsSync(path.join(d, '.git'))) return d
    if (path.dirname(d) === d) return path.resolve(dir)
  }
}

const DROP = resetAdvice('volumes', '[]', 'the mount')

const inside = (root: string, p: string): boolean =>
  p === root || p.startsWith(`${root}${path.sep}`)

const socket = (source: string) => ({
  msg: `${source} is a socket: a service reaches the host through it, so it is never mounted: ${DROP}`
})

/** A source's real path, or why it cannot be mounted. */
function realSource(source: string, root: string): string | { msg: string } {
  let real: string
  try {
    real = fs.realpathSync(source)
  } catch {
    // The Docker socket by its name, whether or not this machine has one.
    if (path.basename(source) === 'docker.sock') return socket(source)
    const outside = inside(root, source) ? '' : `, and it is outside the checkout ${root}`
    return {
      msg: `${source} does not exist${outside}: mount only files of the repository, or ${DROP}`
    }
  }
  if (fs.statSync(real).isSocket()) return socket(source)
  if (!inside(root, real)) {
    const via = real === source ? '' : ` (it leads to ${real})`
    return {
      msg: `${source}${via} is outside the checkout ${root}: mount only files of the repository, or ${DROP}`
    }
  }
  return real
}

/** The services with every bind source resolved to its real path, and the problems found. */
export function checkedMounts(
  services: readonly ContainerService[],
  dir: string
): { services: ContainerService[]; problems: MountProblem[] } {
  // Resolved only where something is mounted: a topology read from text may name no real place.
  let root: string | undefined
  const problems: MountProblem[] = []
  const checked = services.map((s, i) => ({
    ...s,
    mounts: s.mounts.map((m, j) => {
      if (m.type !== 'bind') return m
      root ??= fs.realpathSync(checkoutOf(dir))
      const real = realSource(path.resolve(dir, m.source), root)
      if (typeof real === 'string') return { ...m, source: real }
      problems.push({ where: `services.${i}.mounts.${j}`, msg: real.msg })
      return m
    })
  }))
  return { services: checked, problems }
}
