import { createHash } from 'node:crypto'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { assetPath } from '../paths'
import { cacheRoot, imageArchiveDir } from './cache-dir'
import { depsRecipe } from './docker/gnes-image'
import { BUILD_PINS, RUNTIME_PINS } from './local/venv'

/** Bumped when what the cache holds changes shape, so no job restores an older layout. */
const LAYOUT = 1

/** What the action's cache keeps of provisioning, and the key under which it fits a job. */
export interface ProvisioningCache {
  key: string
  /** The venv of each GNES version, absolute paths. */
  venvs: string[]
  /** The image archives' directory, an absolute path. */
  archives: string
}

/** Every path the cache saves and restores. */
export const cachedPaths = (c: ProvisioningCache): string[] => [...c.venvs, c.archives]

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
 * The cache of a run's provisioning. The key holds everything a restored venv or image was made
 * from (the shipped Dockerfiles, the pins, the base image, the interpreter, the runner), so a
 * changed recipe misses instead of restoring a stale build.
 */
export function provisioningCache(needs: ProvisioningNeeds, runner: Runner): ProvisioningCache {
  const head = [`gnes-latency-bench-${LAYOUT}`, runner.platform, runner.arch, needs.engine]
  if (needs.source) {
    const deps = depsRecipe(needs.baseImage)
    return { key: [...head, 'gnes-deps', deps].join('-'), venvs: [], archives: imageArchiveDir() }
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
    key: [...head, `gnes-${versions.join('+')}`, recipe].join('-'),
    venvs: versions.map(v => path.join(root, `gnes-${v}`)),
    archives: imageArchiveDir()
  }
}
