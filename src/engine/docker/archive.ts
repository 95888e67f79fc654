import type Docker from 'dockerode'
import * as tar from 'tar-stream'
import { statusOf } from './client'

/**
 * Files in and out of containers through the Engine API's archive endpoints, not bind mounts,
 * so it works the same against a remote DOCKER_HOST or Docker-in-Docker.
 */

/** The content of one file in a container; '' when it does not exist (yet). */
export async function readContainerFile(
  container: Docker.Container,
  file: string
): Promise<string> {
  let stream: NodeJS.ReadableStream
  try {
    stream = await container.getArchive({ path: file })
  } catch (err) {
    if (statusOf(err) === 404) return ''
    throw err
  }
  const chunks: Buffer[] = []
  const extract = tar.extract()
  extract.on('entry', (header, entry, next) => {
    if (header.type === 'file')
      entry.on('data', (c: unknown) => {
        chunks.push(c as Buffer)
      })
    entry.on('end', next)
    entry.resume()
  })
  await new Promise<void>((resolve, reject) => {
    extract.on('finish', resolve)
    extract.on('error', reject)
    stream.on('error', reject)
    stream.pipe(extract)
  })
  return Buffer.concat(chunks).toString('utf8')
}

/** A tar archive of in-memory files, e.g. for putArchive or an image build context. */
export function tarOf(
  files: { name: string; content: Buffer; mode?: number }[]
): NodeJS.ReadableStream {
  const pack = tar.pack()
  for (const f of files) pack.entry({ name: f.name, mode: f.mode ?? 0o644 }, f.content)
  pack.finalize()
  // tar-stream's streamx Readable pipes like a Node stream; its typings do not say so.
  return pack as unknown as NodeJS.ReadableStream
}

/** Writes files into `dir` of a (created or running) container. */
export async function putContainerFiles(
  container: Docker.Container,
  dir: string,
  files: { name: string; content: Buffer }[]
): Promise<void> {
  await container.putArchive(tarOf(files), { path: dir })
}
