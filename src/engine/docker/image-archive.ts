import type Docker from 'dockerode'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { pipeline } from 'node:stream/promises'
import { fmtElapsed } from '../../text/duration'
import { follow } from './image-build'

/** An archive's file name: the image reference with what a file name cannot hold replaced. */
export const archiveName = (ref: string): string => `${ref.replace(/[^A-Za-z0-9._-]/g, '_')}.tar`

/** The archives in `dir` of tags that start with `family`, but for `tag`'s own. */
export function otherArchives(dir: string, family: string, tag: string): string[] {
  if (!fs.existsSync(dir)) return []
  const prefix = archiveName(family).slice(0, -'.tar'.length)
  return fs
    .readdirSync(dir)
    .filter(f => f.startsWith(prefix) && f.endsWith('.tar') && f !== archiveName(tag))
    .map(f => path.join(dir, f))
}

/**
 * Loads an image archive when there is one. A damaged archive costs a build, never the run: it
 * is reported and removed, and the image is built as if there were none.
 */
export async function loadArchive(
  docker: Docker,
  file: string,
  log: (line: string) => void
): Promise<boolean> {
  if (!fs.existsSync(file)) return false
  const started = Date.now()
  try {
    await follow(docker, await docker.loadImage(fs.createReadStream(file)), () => undefined, [])
  } catch (err) {
    log(`cannot load ${file} (${(err as Error).message}); building the image instead`)
    fs.rmSync(file, { force: true })
    return false
  }
  log(`loaded ${file} in ${fmtElapsed((Date.now() - started) / 1000)}`)
  return true
}

/**
 * Saves the image as an archive, so the next job on a fresh runner loads it instead of building.
 * Written beside and renamed: an archive is whole or absent. A failure costs the next job a build,
 * never this run.
 */
export async function saveArchive(
  docker: Docker,
  ref: string,
  file: string,
  log: (line: string) => void
): Promise<void> {
  const started = Date.now()
  const partial = `${file}.partial`
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true })
    await pipeline(await docker.getImage(ref).get(), fs.createWriteStream(partial))
    fs.renameSync(partial, file)
  } catch (err) {
    fs.rmSync(partial, { force: true })
    log(`cannot save ${ref} to ${file}: ${(err as Error).message}`)
    return
  }
  const mb = fs.statSync(file).size / 1e6
  log(
    `saved ${ref} to ${file} (${mb.toFixed(0)} MB, ${fmtElapsed((Date.now() - started) / 1000)}) for the cache`
  )
}
