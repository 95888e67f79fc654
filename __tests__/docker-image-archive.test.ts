/**
 * Integration: image archives for the action's cache against the real daemon, with the GNES
 * image scripts/docker-setup.sh built. The load paths use a base name of their own (a tag of the
 * test base), so the shared image never leaves the daemon: an archive holds it under that name's
 * tag alone.
 *
 * @side-by-side: archives and loads, under a base name of its own; no figure.
 */
import Docker from 'dockerode'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { pipeline } from 'node:stream/promises'
import { tarOf } from '../src/engine/docker/archive'
import { resolveBase, type BaseImage } from '../src/engine/docker/base-image'
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
const split = (ref: string) => {
  const at = ref.lastIndexOf(':')
  return { repo: ref.slice(0, at), tag: ref.slice(at + 1) }
}
const remove = (ref: string) =>
  docker
    .getImage(ref)
    .remove({ noprune: true })
    .catch(() => undefined)

/** `ref` as an archive in `dir`, made from `image` under that tag, which leaves the daemon. */
async function archiveAs(image: string, ref: string, dir: string): Promise<string> {
  await docker.getImage(image).tag(split(ref))
  const file = archiveOf(dir, ref)
  await pipeline(await docker.getImage(ref).get(), fs.createWriteStream(file))
  await remove(ref)
  return file
}

describeDocker('image archives for the provisioning cache', () => {
  const stamp = Date.now().toString(36)
  const alias = `gnes-latency-bench/archive-test:base-${stamp}`
  const empty = `gnes-latency-bench/archive-test:empty-${stamp}`
  let built: string
  let base: BaseImage
  let named: string

  beforeAll(async () => {
    built = pypiImageTag('0.0.47', await resolveBase(docker, BASE_IMAGE, () => undefined))
    await docker.getImage(BASE_IMAGE).tag(split(alias))
    base = await resolveBase(docker, alias, () => undefined)
    named = pypiImageTag('0.0.47', base)
  })
  afterAll(async () => {
    for (const ref of [named, alias, empty]) await remove(ref)
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
    await archiveAs(built, named, dir)
    expect(await exists(named)).toBe(false)

    const lines: string[] = []
    expect(await ensureImage(docker, pypi(alias, dir), l => lines.push(l))).toBe(named)
    expect(lines.join('\n')).toMatch(/loaded .* in [\d.]+ s/)
    expect(await exists(named)).toBe(true)
  })

  it('never loads an archive built on the base as it was before it moved: says so and removes it', async () => {
    const dir = tmp()
    // The name's earlier image: what a job restores after the registry moved the tag.
    const before = pypiImageTag('0.0.47', { name: alias, id: `sha256:${'0'.repeat(64)}` })
    const stale = await archiveAs(built, before, dir)
    if (!(await exists(named))) await docker.getImage(built).tag(split(named))

    const lines: string[] = []
    expect(await ensureImage(docker, pypi(alias, dir), l => lines.push(l))).toBe(named)
    expect(lines).toContain(
      `not using ${stale}: built on another base than ${alias} as it is now (${base.id}) or by another recipe; removed`
    )
    expect(await exists(before)).toBe(false)
    // What the cache keeps now is the image of the base as it is.
    expect(fs.readdirSync(dir)).toEqual([path.basename(archiveOf(dir, named))])
  })

  it('a damaged archive is dropped and the image provisioned as without one', async () => {
    // A base with no files: a build on it fails at its first command.
    const dockerfile = Buffer.from('FROM scratch\nLABEL io.gnes-latency-bench.test=empty\n')
    const stream = await docker.buildImage(tarOf([{ name: 'Dockerfile', content: dockerfile }]), {
      t: empty
    })
    await new Promise((resolve, reject) =>
      docker.modem.followProgress(stream, e => (e ? reject(e) : resolve(null)))
    )
    const dir = tmp()
    const tag = pypiImageTag('0.0.47', await resolveBase(docker, empty, () => undefined))
    const file = archiveOf(dir, tag)
    fs.writeFileSync(file, 'not a tar')
    const lines: string[] = []
    await expect(ensureImage(docker, pypi(empty, dir), l => lines.push(l))).rejects.toThrow(
      `building the compiler and GNES's dependencies on ${empty}`
    )
    expect(lines.join('\n')).toContain(`cannot load ${file}`)
    expect(fs.existsSync(file)).toBe(false)
  })
})
