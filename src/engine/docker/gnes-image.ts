import type Docker from 'dockerode'
import { createHash } from 'node:crypto'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { assetPath } from '../../paths'
import { readGnesSource, sourceFiles } from '../source-tree'
import { archiveName, loadArchive, saveArchive } from './image-archive'
import { build, ensureBase, imageExists } from './image-build'

/**
 * GNES's images, built with the shipped Dockerfiles: a release from PyPI or a source tree, each on
 * the deps image (docker/deps.Dockerfile: a compiler and the pinned dependencies on the base).
 */

const shipped = (file: string): Buffer => fs.readFileSync(assetPath('docker', file))

/** The label that marks every image built here with the base it was built on. */
const BASE_LABEL = 'io.gnes-latency-bench.base-image'

const hashOf = (...parts: (string | Buffer)[]): string => {
  const hash = createHash('sha256')
  for (const p of parts) hash.update(p).update('\n')
  return hash.digest('hex')
}

/** What the deps image of a base is made from: the base and docker/deps.Dockerfile. */
export const depsRecipe = (baseImage: string): string =>
  hashOf(baseImage, shipped('deps.Dockerfile')).slice(0, 16)

const depsImageTag = (baseImage: string): string =>
  `gnes-latency-bench/gnes-deps:${depsRecipe(baseImage)}`

/** The tag of a PyPI build: its version, base and both shipped Dockerfiles. */
export function pypiImageTag(version: string, baseImage: string): string {
  const hash = hashOf(version, baseImage, shipped('deps.Dockerfile'), shipped('Dockerfile'))
  return `gnes-latency-bench/gnes:${version}-${hash.slice(0, 12)}`
}

type Log = (line: string) => void

/** Where an image is loaded from when the daemon lacks it, and saved to for the next job. */
async function fromArchive(
  docker: Docker,
  tag: string,
  archives: string | null,
  log: Log
): Promise<{ present: boolean; loaded: boolean; keep: () => Promise<void> }> {
  const archive = archives && path.join(archives, archiveName(tag))
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
 * The deps image of `baseImage`, from the daemon, an archive of an earlier job, or built (the slow
 * part on a fresh runner: a compiler from the distribution, the dependencies from the index).
 */
async function ensureDeps(
  docker: Docker,
  o: { baseImage: string; archives: string | null; forWhat: string },
  log: Log
): Promise<string> {
  const { baseImage, archives } = o
  const tag = depsImageTag(baseImage)
  const image = await fromArchive(docker, tag, archives, log)
  if (image.present) {
    log(`using ${tag} (${image.loaded ? 'loaded from its archive' : 'built before'})`)
  } else {
    await ensureBase(docker, baseImage, log)
    await build(
      docker,
      [{ name: 'Dockerfile', content: shipped('deps.Dockerfile') }],
      { t: tag, buildargs: { BASE_IMAGE: baseImage }, labels: { [BASE_LABEL]: baseImage } },
      `the compiler and GNES's dependencies on ${baseImage} (for ${o.forWhat})`,
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
    baseImage: string
    deps: string
    gnesSrc: { name: string; content: Buffer; mode?: number }[]
    args: Record<string, string>
    what: string
  },
  log: Log
): Promise<void> {
  await ensureBase(docker, o.baseImage, log)
  await build(
    docker,
    [{ name: 'Dockerfile', content: shipped('Dockerfile') }, ...o.gnesSrc],
    {
      t: o.tag,
      buildargs: {
        BASE_IMAGE: o.baseImage,
        DEPS_IMAGE: o.deps,
        GNES_BUILD_DATE: new Date().toISOString(),
        ...o.args
      },
      labels: { [BASE_LABEL]: o.baseImage }
    },
    o.what,
    log
  )
}

/**
 * A PyPI release's image. With `archives`, the image itself is what an earlier job left and what
 * the next one loads: its deps image is not kept.
 */
export async function ensurePypiImage(
  docker: Docker,
  src: { version: string; baseImage: string; archives: string | null },
  log: Log
): Promise<string> {
  const tag = pypiImageTag(src.version, src.baseImage)
  const image = await fromArchive(docker, tag, src.archives, log)
  if (image.present) {
    const how = image.loaded ? 'loaded from its archive' : 'built before'
    log(`using ${tag} (GNES ${src.version} on ${src.baseImage}, ${how})`)
  } else {
    const what = `the GNES ${src.version} image from PyPI on ${src.baseImage}`
    const deps = await ensureDeps(
      docker,
      { baseImage: src.baseImage, archives: null, forWhat: what },
      log
    )
    log(`pip inside the build fetches GNES ${src.version} from the index and compiles it`)
    await buildGnes(
      docker,
      {
        tag,
        baseImage: src.baseImage,
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
 * A source tree's image, tagged by the tree's content, the base and the Dockerfiles, so an
 * unchanged checkout is not built again and two sides of a paired run never share a tag unless
 * their trees are the same. Every commit has a tree of its own, so what `archives` keeps for the
 * next job is the deps image, which every tree builds on.
 */
export async function ensureSourceImage(
  docker: Docker,
  src: { dir: string; baseImage: string; archives: string | null },
  log: Log
): Promise<string> {
  const tree = readGnesSource(src.dir)
  const deps = shipped('deps.Dockerfile')
  const hash = hashOf(tree.hash, src.baseImage, deps, shipped('Dockerfile')).slice(0, 16)
  const tag = `gnes-latency-bench/gnes-source:${hash}`
  if (await imageExists(docker, tag)) {
    log(`using ${tag} (GNES from ${tree.dir} on ${src.baseImage}, built before)`)
    return tag
  }
  const what = `GNES from ${tree.dir} on ${src.baseImage}`
  const depsFor = { baseImage: src.baseImage, archives: src.archives, forWhat: what }
  await buildGnes(
    docker,
    {
      tag,
      baseImage: src.baseImage,
      deps: await ensureDeps(docker, depsFor, log),
      gnesSrc: sourceFiles(tree.dir).map(f => ({ ...f, name: `gnes-src/${f.name}` })),
      args: { GNES_VERSION: '', GNES_VCS_VERSION: tree.commit ?? '' },
      what
    },
    log
  )
  return tag
}
