import * as cache from '@actions/cache'
import * as core from '@actions/core'
import { execFileSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as path from 'node:path'
import type { Inputs, RawInputs } from '../config/inputs'
import type { Log } from '../log'
import { fmtElapsed } from '../text/duration'
import { completeMarker } from '../engine/local/venv'
import {
  cachedPaths,
  entryKey,
  heldNow,
  provisioningCache,
  type ProvisioningCache,
  type Runner
} from '../engine/provisioning-cache'
import { STATE_CACHE } from './state'

/**
 * `cache: auto` on a runner: on where the runner offers a cache service, off elsewhere; `true`
 * without one is said and turned off, so no job saves archives nobody can keep.
 */
export function resolveCacheInput(raw: Partial<RawInputs>, log: Log): Partial<RawInputs> {
  const wanted = (raw.cache ?? 'auto').trim().toLowerCase()
  if (wanted !== 'auto' && wanted !== 'true') return raw
  const available = cache.isFeatureAvailable()
  if (wanted === 'true' && !available) {
    log.warn('cache: true, but this runner offers no cache service: GNES is provisioned afresh')
  }
  return { ...raw, cache: available ? 'true' : 'false' }
}

function runner(): Runner {
  let python = 'none'
  try {
    python = execFileSync(
      process.env.GNES_BENCH_PYTHON ?? 'python3',
      ['-c', 'import sys; print(sys.executable, sys.version)'],
      { encoding: 'utf8' }
    ).trim()
  } catch {
    // No Python: the Docker engine needs none, and a local run says so when it provisions.
  }
  return { platform: process.platform, arch: process.arch, python }
}

interface Saved extends ProvisioningCache {
  /** The key of the entry restored, if any: saving what it held again would add nothing. */
  restored: string | null
}

/**
 * Restores what earlier jobs provisioned, before the engine looks for it: the newest entry under
 * the job's prefix. The engine uses of it only what fits the base as it is now (an archive is
 * named by its image's tag, which hashes the base's identity), and the post step saves anew when
 * it provisioned something else. A run of the user's own image or Dockerfile caches nothing, nor
 * does a source tree on the local engine (a venv of each commit); a source tree in an image keeps
 * the deps image it builds on. A cache that cannot be reached costs a build, never the run.
 */
export async function restoreProvisioning(inputs: Inputs, log: Log): Promise<void> {
  const source = !!inputs['gnes-source']
  if (inputs.cache !== 'true' || inputs.image || inputs.dockerfile) return
  if (source && inputs.engine === 'local') return
  const c = provisioningCache(
    {
      source,
      gnesVersions: [
        inputs['gnes-version'],
        inputs['baseline-gnes-version'] ?? inputs['gnes-version']
      ],
      baseImage: inputs['base-image'],
      engine: inputs.engine
    },
    runner()
  )
  const started = Date.now()
  let restored: string | null = null
  try {
    // The key is looked up by prefix: every entry's key is the prefix and what it holds.
    restored = (await cache.restoreCache(cachedPaths(c), c.prefix)) ?? null
    log.info(
      restored
        ? `cache: restored ${restored} (${fmtElapsed((Date.now() - started) / 1000)})`
        : `cache: nothing under ${c.prefix} yet; provisioned here and saved by the post step`
    )
  } catch (err) {
    log.warn(`cache: cannot restore ${c.prefix} (${(err as Error).message}); provisioning afresh`)
  }
  core.saveState(STATE_CACHE, JSON.stringify({ ...c, restored } satisfies Saved))
}

/**
 * The `post:` step's half: saves what this job's paths hold under the key of what they hold, unless
 * that is the entry the main step restored. A half-written image archive is dropped first, and an
 * unfinished venv keeps the job from saving.
 */
export async function saveProvisioning(log: Log): Promise<void> {
  const state = core.getState(STATE_CACHE)
  if (!state) return
  const saved = JSON.parse(state) as Saved
  if (fs.existsSync(saved.archives)) {
    for (const f of fs.readdirSync(saved.archives)) {
      if (f.endsWith('.partial')) fs.rmSync(path.join(saved.archives, f), { force: true })
    }
  }
  const paths = cachedPaths(saved)
  const present = paths.filter(
    p => fs.existsSync(p) && (fs.statSync(p).isFile() || fs.readdirSync(p).length > 0)
  )
  if (!present.length) {
    log.info('cache: this job provisioned nothing to keep')
    return
  }
  // Only whole builds are kept.
  const unfinished = saved.venvs.find(v => present.includes(v) && !fs.existsSync(completeMarker(v)))
  if (unfinished) {
    log.warn(`cache: not saved: ${unfinished} was not finished`)
    return
  }
  const key = entryKey(saved.prefix, heldNow(saved))
  if (key === saved.restored) return
  const started = Date.now()
  try {
    // -1: the library said why (another job of the key saving first, a service error).
    if ((await cache.saveCache(paths, key)) === -1) return
    log.info(
      `cache: saved ${present.join(', ')} as ${key} (${fmtElapsed((Date.now() - started) / 1000)})`
    )
  } catch (err) {
    log.warn(`cache: not saved (${(err as Error).message})`)
  }
}
