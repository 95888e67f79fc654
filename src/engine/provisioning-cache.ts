import { createHash } from 'node:crypto'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { assetPath } from '../paths'
import { cacheRoot, imageArchiveDir } from './cache-dir'
import { depsRecipe } from './docker/gnes-image'
import { BUILD_PINS, completeMarker, RUNTIME_PINS } from './local/venv'

/** Bumped when what the cache holds changes shape, so no job restores an older layout. */
const LAYOUT = 2

/**
 * What the action's cache keeps of provisioning, and the prefix of the keys that fit a job: what
 * can be known before anything is provisioned. An entry's own key adds what it holds (entryKey).
 */
export interface ProvisioningCache {
  prefix: string
  /** The venv of each GNES version, absolute paths. */
  venvs: string[]
  /** The image archives' directory, an absolute path. */
  archives: string
}

/** Every path the cache saves and restores. */
export const cachedPaths = (c: ProvisioningCache): string[] => [...c.venvs, c.archives]

/**
 * The key an entry is saved under: the prefix, and a hash of the names of what it holds, each
 * venv by its GNES version and each image archive by its image's tag, which hashes the identity
 * of the base the image was built on (docker/gnes-image.ts). A moved base is another key.
 */
export function entryKey(prefix: string, held: readonly string[]): string {
  const names = [...held].sort().join('\n')
  return `${prefix}-${createHash('sha256').update(names).digest('hex').slice(0, 12)}`
}

/** The names entryKey takes, of what `c`'s paths hold now: finished venvs and whole archives. */
export function heldNow(c: ProvisioningCache): string[] {
  const venvs = c.venvs.filter(v => fs.existsSync(completeMarker(v))).map(v => path.basename(v))
  const archives = fs.existsSync(c.archives)
    ? fs.readdirSync(c.archives).filter(f => f.endsWith('.tar'))
    : []
  return [...venvs, ...archives]
}

export interface ProvisioningNeeds {
  /** Every GNES release the run installs (a paired run's base may name a second one). */
  gnesVersions: string[]
  /**
   * GNES is built from a source tree in an image: what is kept is the deps image every tree builds
   * on (docker/deps.Dockerfile), since each commit's own image is new.
   */
  source: boolean
  baseImage: string
  engine: string
}

/** Where it runs: a venv holds the interpreter's path and version, an image neither. */
export interface Runner {
  platform: string
  arch: string
  /** `sys.executable` and `sys.version` of the Python the venvs are made with. */
  python: string
}

/**
 * The cache of a run's provisioning. The prefix holds everything a restored venv or image was made
 * from that is known before provisioning (the shipped Dockerfiles, the pins, the base image's
 * name, the interpreter, the runner), so a changed recipe misses instead of restoring a stale
 * build; the base's identity is known once the engine has the base, and is in each archive's name.
 */
export function provisioningCache(needs: ProvisioningNeeds, runner: Runner): ProvisioningCache {
  const head = [`gnes-latency-bench-${LAYOUT}`, runner.platform, runner.arch, needs.engine]
  if (needs.source) {
    const deps = depsRecipe(needs.baseImage)
    return {
      prefix: [...head, 'gnes-deps', deps].join('-'),
      venvs: [],
      archives: imageArchiveDir()
    }
  }
  const versions = [...new Set(needs.gnesVersions)].sort()
  const recipe = createHash('sha256')
    .update(fs.readFileSync(assetPath('docker', 'deps.Dockerfile')))
    .update(fs.readFileSync(assetPath('docker', 'Dockerfile')))
    .update(JSON.stringify([BUILD_PINS, RUNTIME_PINS, needs.baseImage, runner.python]))
    .digest('hex')
    .slice(0, 16)
  const root = cacheRoot()
  return {
    prefix: [...head, `gnes-${versions.join('+')}`, recipe].join('-'),
    venvs: versions.map(v => path.join(root, `gnes-${v}`)),
    archives: imageArchiveDir()
  }
}
