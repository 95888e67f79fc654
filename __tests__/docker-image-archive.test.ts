/**
 * Integration: image archives for the action's cache against the real daemon, with the GNES
 * image scripts/docker-setup.sh built. The load path uses a base name of its own, so the shared
 * image never leaves the daemon: the archive holds it under that name's tag alone.
 */
import Docker from 'dockerode'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { pipeline } from 'node:stream/promises'
import { InputError } from '../src/config/inputs'
import { pypiImageTag } from '../src/engine/docker/gnes-image'
import { ensureImage, type ImageSource } from '../src/engine/docker/image'
import { BASE_IMAGE, describeDocker } from './helpers/docker'
import { tmp } from './helpers/tmp'

const docker = new Docker()
const archiveOf = (dir: string, ref: string) =>
  path.join(dir, `${ref.replace(/[^A-Za-z0-9._-]/g, '_')}.tar`)
const pypi = (baseImage: string, archives: string): ImageSource => ({
  kind: 'pypi',
  version: '0.0.47',
  baseImage,
  archives
})
const exists = (ref: string) =>
  docker
    .getImage(ref)
    .inspect()
    .then(
      () => true,
      () => false
    )

describeDocker('image archives for the provisioning cache', () => {
  const built = pypiImageTag('0.0.47', BASE_IMAGE)
  const elsewhere = 'gnes-latency-bench/archive-test:absent'
  const named = pypiImageTag('0.0.47', elsewhere)

  afterAll(async () => {
    if (await exists(named)) await docker.getImage(named).remove({ noprune: true })
  })

  it('saves the image it uses once, as a whole archive', async () => {
    const dir = tmp()
    const lines: string[] = []
    expect(await ensureImage(docker, pypi(BASE_IMAGE, dir), l => lines.push(l))).toBe(built)
    const file = archiveOf(dir, built)
    expect(fs.statSync(file).size).toBeGreaterThan(50e6)
    expect(fs.readdirSync(dir)).toEqual([path.basename(file)])
    expect(lines.join('\n')).toMatch(/saved .* for the cache/)
    // Saved once: the next run finds it and writes nothing.
    const mtime = fs.statSync(file).mtimeMs
    await ensureImage(docker, pypi(BASE_IMAGE, dir), () => undefined)
    expect(fs.statSync(file).mtimeMs).toBe(mtime)
  })

  it('loads an archive when the daemon lacks the image', async () => {
    const dir = tmp()
    const at = named.lastIndexOf(':')
    await docker.getImage(built).tag({ repo: named.slice(0, at), tag: named.slice(at + 1) })
    await pipeline(await docker.getImage(named).get(), fs.createWriteStream(archiveOf(dir, named)))
    await docker.getImage(named).remove({ noprune: true })
    expect(await exists(named)).toBe(false)

    const lines: string[] = []
    expect(await ensureImage(docker, pypi(elsewhere, dir), l => lines.push(l))).toBe(named)
    expect(lines.join('\n')).toMatch(/loaded .* in [\d.]+ s/)
    expect(await exists(named)).toBe(true)
  })

  it('a damaged archive is dropped and the image provisioned as without one', async () => {
    const dir = tmp()
    const other = 'gnes-latency-bench/archive-test:damaged'
    const file = archiveOf(dir, pypiImageTag('0.0.47', other))
    fs.writeFileSync(file, 'not a tar')
    const lines: string[] = []
    // Without the archive the build needs its base, which does not exist: the base's error.
    await expect(ensureImage(docker, pypi(other, dir), l => lines.push(l))).rejects.toThrow(
      InputError
    )
    expect(lines.join('\n')).toContain(`cannot load ${file}`)
    expect(fs.existsSync(file)).toBe(false)
  })
})
