import * as fs from 'node:fs'
import * as path from 'node:path'
import { resolveCacheInput } from '../src/action/cache'
import { baseIdentity } from '../src/engine/docker/base-image'
import { depsImageTag, pypiImageTag } from '../src/engine/docker/gnes-image'
import { archiveName, otherArchives } from '../src/engine/docker/image-archive'
import { completeMarker } from '../src/engine/local/venv'
import { cachedPaths, entryKey, heldNow, provisioningCache } from '../src/engine/provisioning-cache'
import { tmp } from './helpers/tmp'

const needs = {
  source: false,
  gnesVersions: ['0.0.47', '0.0.47'],
  baseImage: 'python:3.11-slim',
  engine: 'auto'
}
const runner = { platform: 'linux', arch: 'x64', python: '/usr/bin/python3.11 3.11.2' }

describe('provisioningCache', () => {
  const env = process.env.GNES_BENCH_CACHE
  beforeAll(() => (process.env.GNES_BENCH_CACHE = '/cache'))
  afterAll(() =>
    env === undefined ? delete process.env.GNES_BENCH_CACHE : (process.env.GNES_BENCH_CACHE = env)
  )

  it('keeps each version’s venv and the image archives, under a prefix naming what they fit', () => {
    const c = provisioningCache(needs, runner)
    expect(cachedPaths(c)).toEqual([
      path.join('/cache', 'gnes-0.0.47'),
      path.join('/cache', 'images')
    ])
    expect(c.prefix).toMatch(/^gnes-latency-bench-2-linux-x64-auto-gnes-0\.0\.47-[0-9a-f]{16}$/)
    const paired = provisioningCache({ ...needs, gnesVersions: ['0.0.47', '0.0.46'] }, runner)
    expect(paired.prefix).toContain('-gnes-0.0.46+0.0.47-')
    expect(cachedPaths(paired)).toHaveLength(3)
  })

  it('a different recipe or runner misses instead of restoring a stale build', () => {
    const key = provisioningCache(needs, runner).prefix
    expect(provisioningCache(needs, runner).prefix).toBe(key)
    for (const other of [
      provisioningCache({ ...needs, baseImage: 'python:3.12-slim' }, runner),
      provisioningCache(needs, { ...runner, python: '/usr/bin/python3.12 3.12.1' }),
      provisioningCache(needs, { ...runner, arch: 'arm64' }),
      provisioningCache({ ...needs, engine: 'local' }, runner)
    ]) {
      expect(other.prefix).not.toBe(key)
    }
  })

  it('for a source tree keeps the deps image, by base and not by the runner’s Python', () => {
    const source = provisioningCache({ ...needs, source: true }, runner)
    expect(cachedPaths(source)).toEqual([path.join('/cache', 'images')])
    expect(source.prefix).toMatch(/^gnes-latency-bench-2-linux-x64-auto-gnes-deps-[0-9a-f]{16}$/)
    const python = { ...runner, python: '/usr/bin/python3.12 3.12.1' }
    expect(provisioningCache({ ...needs, source: true }, python).prefix).toBe(source.prefix)
    const base = { ...needs, source: true, baseImage: 'python:3.12-slim' }
    expect(provisioningCache(base, runner).prefix).not.toBe(source.prefix)
  })
})

describe('a base image’s identity in what the cache keeps', () => {
  const name = 'python:3.11-slim'
  const moved = { name, id: 'python@sha256:' + 'b'.repeat(64) }
  const before = { name, id: 'python@sha256:' + 'a'.repeat(64) }

  it('is the digest of the base’s own repository when pulled, else the image id', () => {
    const id = 'sha256:' + 'c'.repeat(64)
    const digest = 'python@sha256:' + 'd'.repeat(64)
    const elsewhere = 'mirror.example:5000/python@sha256:' + 'e'.repeat(64)
    expect(baseIdentity(name, { Id: id, RepoDigests: [elsewhere, digest] })).toBe(digest)
    expect(
      baseIdentity('docker.io/library/python:3.11-slim', { Id: id, RepoDigests: [digest] })
    ).toBe(digest)
    // Made or tagged here: no digest of its own repository.
    expect(baseIdentity(name, { Id: id, RepoDigests: [] })).toBe(id)
    expect(baseIdentity(name, { Id: id })).toBe(id)
    expect(
      baseIdentity('mirror.example:5000/python:3.11', { Id: id, RepoDigests: [elsewhere] })
    ).toBe(elsewhere)
    // A name that pins a digest is that digest.
    const pinned = `python:3.11-slim@sha256:${'f'.repeat(64)}`
    expect(baseIdentity(pinned, { Id: id, RepoDigests: [digest] })).toBe(
      `python@sha256:${'f'.repeat(64)}`
    )
  })

  it('a changed base digest changes the images’ tags, and with them the key of the entry holding them', () => {
    expect(pypiImageTag('0.0.47', moved)).not.toBe(pypiImageTag('0.0.47', before))
    expect(depsImageTag(moved)).not.toBe(depsImageTag(before))
    expect(pypiImageTag('0.0.47', { ...before })).toBe(pypiImageTag('0.0.47', before))
    const prefix = provisioningCache(needs, runner).prefix
    const held = (base: typeof before) => [archiveName(pypiImageTag('0.0.47', base))]
    expect(entryKey(prefix, held(moved))).not.toBe(entryKey(prefix, held(before)))
    expect(entryKey(prefix, held(before))).toMatch(new RegExp(`^${prefix}-[0-9a-f]{12}$`))
    for (const base of [before, moved]) {
      const deps = [archiveName(depsImageTag(base))]
      expect(entryKey(prefix, deps)).not.toBe(entryKey(prefix, held(base)))
    }
  })

  it('a restored archive built on another base is another image’s: found as such, never as the current one', () => {
    const dir = tmp()
    const stale = archiveName(pypiImageTag('0.0.47', before))
    const other = archiveName(pypiImageTag('0.0.46', moved))
    for (const f of [stale, other, `${stale}.partial`]) fs.writeFileSync(path.join(dir, f), '')
    const current = pypiImageTag('0.0.47', moved)
    const family = current.slice(0, current.lastIndexOf('-') + 1)
    expect(otherArchives(dir, family, current)).toEqual([path.join(dir, stale)])
    const deps = depsImageTag(moved)
    fs.writeFileSync(path.join(dir, archiveName(depsImageTag(before))), '')
    expect(otherArchives(dir, deps.slice(0, deps.lastIndexOf(':') + 1), deps)).toEqual([
      path.join(dir, archiveName(depsImageTag(before)))
    ])
  })

  it('an entry’s key is what it holds now: finished venvs and whole archives', () => {
    const root = tmp()
    const c = {
      prefix: 'p',
      venvs: ['0.0.46', '0.0.47'].map(v => path.join(root, `gnes-${v}`)),
      archives: path.join(root, 'images')
    }
    expect(heldNow(c)).toEqual([])
    for (const v of c.venvs) fs.mkdirSync(v)
    fs.writeFileSync(completeMarker(c.venvs[1]), '{}')
    fs.mkdirSync(c.archives)
    const tag = archiveName(pypiImageTag('0.0.47', moved))
    fs.writeFileSync(path.join(c.archives, tag), '')
    fs.writeFileSync(path.join(c.archives, `${tag}.partial`), '')
    expect(heldNow(c)).toEqual(['gnes-0.0.47', tag])
    expect(entryKey('p', ['b', 'a'])).toBe(entryKey('p', ['a', 'b']))
  })
})

describe('resolveCacheInput (the action’s cache: auto)', () => {
  const saved = { ...process.env }
  afterEach(() => {
    for (const k of ['ACTIONS_CACHE_URL', 'ACTIONS_RESULTS_URL', 'ACTIONS_CACHE_SERVICE_V2']) {
      if (saved[k] === undefined) delete process.env[k]
      else process.env[k] = saved[k]
    }
  })
  const warnings: string[] = []
  const log = {
    info: () => undefined,
    warn: (m: string) => warnings.push(m),
    group: <T>(_: string, w: () => Promise<T>) => w()
  }

  it('is on where the runner offers a cache service and off elsewhere; true without one says so', () => {
    delete process.env.ACTIONS_CACHE_URL
    delete process.env.ACTIONS_RESULTS_URL
    delete process.env.ACTIONS_CACHE_SERVICE_V2
    expect(resolveCacheInput({}, log).cache).toBe('false')
    expect(warnings).toEqual([])
    expect(resolveCacheInput({ cache: 'true' }, log).cache).toBe('false')
    expect(warnings).toEqual([expect.stringContaining('offers no cache service')])
    expect(resolveCacheInput({ cache: 'false' }, log).cache).toBe('false')
    // An invalid value is left for the input check to name.
    expect(resolveCacheInput({ cache: 'sometimes' }, log).cache).toBe('sometimes')
    process.env.ACTIONS_CACHE_URL = 'http://127.0.0.1:1/'
    expect(resolveCacheInput({}, log).cache).toBe('true')
    expect(resolveCacheInput({ cache: 'false' }, log).cache).toBe('false')
  })
})
