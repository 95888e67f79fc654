import * as path from 'node:path'
import { resolveCacheInput } from '../src/action/cache'
import { cachedPaths, provisioningCache } from '../src/engine/provisioning-cache'

describe('provisioningCache', () => {
  const needs = {
    source: false,
    gnesVersions: ['0.0.47', '0.0.47'],
    baseImage: 'python:3.11-slim',
    engine: 'auto'
  }
  const runner = { platform: 'linux', arch: 'x64', python: '/usr/bin/python3.11 3.11.2' }
  const env = process.env.GNES_BENCH_CACHE
  beforeAll(() => (process.env.GNES_BENCH_CACHE = '/cache'))
  afterAll(() =>
    env === undefined ? delete process.env.GNES_BENCH_CACHE : (process.env.GNES_BENCH_CACHE = env)
  )

  it('keeps each version’s venv and the image archives, under a key naming what they fit', () => {
    const c = provisioningCache(needs, runner)
    expect(cachedPaths(c)).toEqual([
      path.join('/cache', 'gnes-0.0.47'),
      path.join('/cache', 'images')
    ])
    expect(c.key).toMatch(/^gnes-latency-bench-1-linux-x64-auto-gnes-0\.0\.47-[0-9a-f]{16}$/)
    const paired = provisioningCache({ ...needs, gnesVersions: ['0.0.47', '0.0.46'] }, runner)
    expect(paired.key).toContain('-gnes-0.0.46+0.0.47-')
    expect(cachedPaths(paired)).toHaveLength(3)
  })

  it('a different recipe or runner misses instead of restoring a stale build', () => {
    const key = provisioningCache(needs, runner).key
    expect(provisioningCache(needs, runner).key).toBe(key)
    for (const other of [
      provisioningCache({ ...needs, baseImage: 'python:3.12-slim' }, runner),
      provisioningCache(needs, { ...runner, python: '/usr/bin/python3.12 3.12.1' }),
      provisioningCache(needs, { ...runner, arch: 'arm64' }),
      provisioningCache({ ...needs, engine: 'local' }, runner)
    ]) {
      expect(other.key).not.toBe(key)
    }
  })

  it('for a source tree keeps the deps image, by base and not by the runner’s Python', () => {
    const source = provisioningCache({ ...needs, source: true }, runner)
    expect(cachedPaths(source)).toEqual([path.join('/cache', 'images')])
    expect(source.key).toMatch(/^gnes-latency-bench-1-linux-x64-auto-gnes-deps-[0-9a-f]{16}$/)
    const python = { ...runner, python: '/usr/bin/python3.12 3.12.1' }
    expect(provisioningCache({ ...needs, source: true }, python).key).toBe(source.key)
    const base = { ...needs, source: true, baseImage: 'python:3.12-slim' }
    expect(provisioningCache(base, runner).key).not.toBe(source.key)
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
