import type Docker from 'dockerode'
import { createHash } from 'node:crypto'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { assetPath } from '../../paths'
import { readGnesSource, sourceFiles } from '../source-tree'
import { resolveBase, type BaseImage } from './base-image'
import { archiveName, loadArchive, otherArchives, saveArchive } from './image-archive'
import { build, imageExists } from './image-build'

/**
 * GNES's images, built with the shipped Dockerfiles: a release from PyPI or a source tree, each on
 * the deps image (docker/deps.Dockerfile: a compiler and the pinned dependencies on the base).
 */

const shipped = (file: string): Buffer => fs.readFileSync(assetPath('docker', file))

/** The labels that mark every image built here with the base it was built on. */
const baseLabels = (base: BaseImage): Record<string, string> => ({
  'io.gnes-latency-bench.base-image': base.name,
  'io.gnes-latency-bench.base-id': base.id
})

const hashOf = (...parts: (string | Buffer)[]): string => {
  const hash = createHash('sha256')
  for (const p of parts) hash.update(p).update('\n')
  return hash.digest('hex')
}

/**
 * What the deps image of a base is made from, as far as a name tells: the base's name and
 * docker/deps.Dockerfile (the action's cache restores by it before the base is resolved).
 */
export const depsRecipe = (baseImage: string): string =>
  hashOf(baseImage, shipped('deps.Dockerfile')).slice(0, 16)

/** A deps image's tag: its recipe and the identity of the base it is built on. */
export const depsImageTag = (base: BaseImage): string =>
  `gnes-latency-bench/gnes-deps:${hashOf(depsRecipe(base.name), base.id).slice(0, 16)}`

/** The tag of a PyPI build: its version, the base (name and identity) and both Dockerfiles. */
export function pypiImageTag(version: string, base: BaseImage): string {
  const recipe = [shipped('deps.Dockerfile'), shipped('Dockerfile')]
  const hash = hashOf(version, base.name, base.id, ...recipe)
  return `gnes-latency-bench/gnes:${version}-${hash.slice(0, 12)}`
}

/** A tag without its hash: every build of that image, whatever its base or recipe. */
const familyOf = (tag: string): string => tag.replace(/[0-9a-f]+$/, '')

type Log = (line: string) => void

/**
 * Where an image is loaded from when the daemon lacks it, and saved to for the next job. An archive
 * of the same image under another tag (another base, or another recipe) is never loaded: it is
 * said and removed, so the cache keeps only what fits the base as it is now.
 */
async function fromArchive(
  docker: Docker,
  image: { tag: string; base: BaseImage },
  archives: string | null,
  log: Log
): Promise<{ present: boolean; loaded: boolean; keep: () => Promise<void> }> {
  const { tag, base } = image
  const archive = archives && path.join(archives, archiveName(tag))
  for (const other of archives ? otherArchives(archives, familyOf(tag), tag) : []) {
    log(
      `not using ${other}: built on another base than ${base.name} as it is now (${base.id}) or by another recipe; removed`
    )
    fs.rmSync(other, { force: true })
  }
  // Saved once per image, whichever way the daemon came to have it.
  const keep = async () => {
    if (archive && !fs.existsSync(archive)) await saveArchive(docker, tag, archive, log)
  }
  let present = await imageExists(docker, tag)
  const loaded = !present && !!archive && (await loadArchive(docker, archive, log))
  if (loaded) present = await imageExists(docker, tag)
  return { present, loaded, keep }
}

/**
 * The deps image of `base`, from the daemon, an archive of an earlier job, or built (the slow
 * part on a fresh runner: a compiler from the distribution, the dependencies from the index).
 */
async function ensureDeps(
  docker: Docker,
  o: { base: BaseImage; archives: string | null; forWhat: string },
  log: Log
): Promise<string> {
  const { base, archives } = o
  const tag = depsImageTag(base)
  const image = await fromArchive(docker, { tag, base }, archives, log)
  if (image.present) {
    log(`using ${tag} (${image.loaded ? 'loaded from its archive' : 'built before'})`)
  } else {
    await build(
      docker,
      [{ name: 'Dockerfile', content: shipped('deps.Dockerfile') }],
      { t: tag, buildargs: { BASE_IMAGE: base.name }, labels: baseLabels(base) },
      `the compiler and GNES's dependencies on ${base.name} (for ${o.forWhat})`,
      log
    )
  }
  await image.keep()
  return tag
}

/** Builds GNES (a release, or the tree in `gnes-src/`) on its deps image. */
async function buildGnes(
  docker: Docker,
  o: {
    tag: string
    base: BaseImage
    deps: string
    gnesSrc: { name: string; content: Buffer; mode?: number }[]
    args: Record<string, string>
    what: string
  },
  log: Log
): Promise<void> {
  await build(
    docker,
    [{ name: 'Dockerfile', content: shipped('Dockerfile') }, ...o.gnesSrc],
    {
      t: o.tag,
      buildargs: {
        BASE_IMAGE: o.base.name,
        DEPS_IMAGE: o.deps,
        GNES_BUILD_DATE: new Date().toISOString(),
        ...o.args
      },
      labels: baseLabels(o.base)
    },
    o.what,
    log
  )
}

/**
 * A PyPI release's image on the base as the daemon has it (pulled when missing). With
 * `archives`, the image itself is what an earlier job left and what the next one loads: its deps
 * image is not kept.
 */
export async function ensurePypiImage(
  docker: Docker,
  src: { version: string; baseImage: string; archives: string | null },
  log: Log
): Promise<string> {
  const base = await resolveBase(docker, src.baseImage, log)
  const tag = pypiImageTag(src.version, base)
  const image = await fromArchive(docker, { tag, base }, src.archives, log)
  if (image.present) {
    const how = image.loaded ? 'loaded from its archive' : 'built before'
    log(`using ${tag} (GNES ${src.version} on ${base.name}, ${how})`)
  } else {
    const what = `the GNES ${src.version} image from PyPI on ${base.name}`
    const deps = await ensureDeps(docker, { base, archives: null, forWhat: what }, log)
    log(`pip inside the build fetches GNES ${src.version} from the index and compiles it`)
    await buildGnes(
      docker,
      {
        tag,
        base,
        deps,
        gnesSrc: [{ name: 'gnes-src/.keep', content: Buffer.alloc(0) }],
        args: { GNES_VERSION: src.version },
        what
      },
      log
    )
  }
  await image.keep()
  return tag
}

/**
 * A source tree's image, tagged by the tree's content, the base (name and identity) and the
 * Dockerfiles, so an unchanged checkout on an unchanged base is not built again and two sides of
 * a paired run never share a tag unless their trees are the same. Every commit has a tree of its
 * own, so what `archives` keeps for the next job is the deps image, which every tree builds on.
 */
export async function ensureSourceImage(
  docker: Docker,
  src: { dir: string; baseImage: string; archives: string | null },
  log: Log
): Promise<string> {
  const tree = readGnesSource(src.dir)
  const base = await resolveBase(docker, src.baseImage, log)
  const recipe = [shipped('deps.Dockerfile'), shipped('Dockerfile')]
  const hash = hashOf(tree.hash, base.name, base.id, ...recipe).slice(0, 16)
  const tag = `gnes-latency-bench/gnes-source:${hash}`
  if (await imageExists(docker, tag)) {
    log(`using ${tag} (GNES from ${tree.dir} on ${base.name}, built before)`)
    return tag
  }
  const what = `GNES from ${tree.dir} on ${base.name}`
  await buildGnes(
    docker,
    {
      tag,
      base,
      deps: await ensureDeps(docker, { base, archives: src.archives, forWhat: what }, log),
      gnesSrc: sourceFiles(tree.dir).map(f => ({ ...f, name: `gnes-src/${f.name}` })),
      args: { GNES_VERSION: '', GNES_VCS_VERSION: tree.commit ?? '' },
      what
    },
    log
  )
  return tag
}
