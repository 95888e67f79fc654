import type Docker from 'dockerode'
import * as fs from 'node:fs'
import * as path from 'node:path'
import * as tar from 'tar-stream'
import type { Mount } from '../../topology/http-schema'
import type { ServicePlan } from '../plan/types'
import { statusOf } from './client'
import { LABEL, labelFilter } from './labels'

/**
 * A deployment's volumes, Docker and Swarm alike: every one named after the deployment and
 * labelled with the run's labels and the deployment's, so the deployment's removal and the run's
 * sweep find them. Named volumes are shared by the deployment's services, unnamed ones are each
 * container's (or Swarm task's) own, and a writable bind mount of a directory becomes a fresh
 * volume holding a copy of it, so nothing a service writes reaches the checkout or the next run.
 */
export interface VolumePlace {
  prefix: string
  labels: Record<string, string>
}

/** The volume a mount of `service` uses at index `j`; null for a bind or tmpfs. */
export function volumeName(
  at: VolumePlace,
  service: string,
  instance: string,
  m: Mount,
  j: number
) {
  if (m.type === 'volume')
    return m.source ? `${at.prefix}-${m.source}` : `${at.prefix}-${instance}-${j}`
  if (m.type === 'bind' && !m.readOnly && fs.statSync(m.source).isDirectory()) {
    return `${at.prefix}-${service}-copy${j}`
  }
  return null
}

/**
 * The Engine API's mounts of one instance (a Swarm task takes the same shape), but for a file
 * written from text (`textFiles`) and the mounts `handed` elsewhere (on Swarm, as its secrets and
 * configs), by index.
 */
export function mountSpecs(
  at: VolumePlace,
  service: ServicePlan,
  instance: string,
  handed: ReadonlySet<number> = new Set()
): Docker.MountSettings[] {
  return service.mounts.flatMap((m, j): Docker.MountSettings[] => {
    if (m.type === 'text' || handed.has(j)) return []
    return [mountSpec(at, service, instance, m, j)]
  })
}

/** A file written from text, as an archive's entry: read-only as Compose mounts a secret. */
export function textFiles(service: ServicePlan): { name: string; content: Buffer; mode: number }[] {
  return service.mounts.flatMap(m =>
    m.type === 'text'
      ? [{ name: m.target.replace(/^\/+/, ''), content: Buffer.from(m.content), mode: 0o444 }]
      : []
  )
}

function mountSpec(
  at: VolumePlace,
  service: ServicePlan,
  instance: string,
  m: Exclude<Mount, { type: 'text' }>,
  j: number
): Docker.MountSettings {
  const volume = volumeName(at, service.name, instance, m, j)
  if (volume) {
    return {
      Type: 'volume',
      Source: volume,
      Target: m.target,
      VolumeOptions: { Labels: at.labels }
    } as Docker.MountSettings
  }
  if (m.type === 'tmpfs') {
    return {
      Type: 'tmpfs',
      Target: m.target,
      ...(m.sizeBytes ? { TmpfsOptions: { SizeBytes: m.sizeBytes } } : {})
    } as Docker.MountSettings
  }
  // A writable file mount is read-only: a file is not copied (a volume mounts only directories).
  return {
    Type: 'bind',
    Source: m.type === 'bind' ? m.source : '',
    Target: m.target,
    ReadOnly: true
  }
}

/** A directory as a tar stream: files, directories and links as they are, modes kept. */
function packDirectory(root: string): tar.Pack {
  const pack = tar.pack()
  const walk = (dir: string, rel: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name)
      const name = rel ? `${rel}/${entry.name}` : entry.name
      const { mode } = fs.lstatSync(full)
      if (entry.isDirectory()) {
        pack.entry({ name, type: 'directory', mode })
        walk(full, name)
      } else if (entry.isSymbolicLink()) {
        pack.entry({ name, type: 'symlink', linkname: fs.readlinkSync(full), mode })
      } else if (entry.isFile()) {
        pack.entry({ name, mode }, fs.readFileSync(full))
      }
    }
  }
  walk(root, '')
  pack.finalize()
  return pack
}

/**
 * Creates and fills each writable directory mount's volume before the service starts (a writable
 * file is mounted read-only, and the log says so): through a
 * container of the service's image that never starts, the directory put in through the archive
 * endpoint, then removed.
 */
export async function fillCopies(
  docker: Docker,
  at: VolumePlace,
  service: ServicePlan,
  image: string,
  log: (line: string) => void
): Promise<void> {
  for (const [j, m] of service.mounts.entries()) {
    const volume = volumeName(at, service.name, '', m, j)
    if (m.type !== 'bind' || m.readOnly) continue
    if (!volume) {
      log(
        `${service.name}: ${m.source} is a file mounted writable at ${m.target}: mounted read-only`
      )
      continue
    }
    log(
      `${service.name}: ${m.source} is mounted writable at ${m.target}: a copy of it in a fresh volume, ${volume}`
    )
    await docker.createVolume({ Name: volume, Labels: at.labels })
    const filler = await docker.createContainer({
      name: `${volume}-fill`,
      Image: image,
      Labels: at.labels,
      HostConfig: { Mounts: [{ Type: 'volume', Source: volume, Target: '/copy' }] }
    })
    try {
      await filler.putArchive(packDirectory(m.source) as unknown as NodeJS.ReadableStream, {
        path: '/copy'
      })
    } finally {
      await filler.remove({ force: true })
    }
  }
}

/**
 * Removes the volumes labelled so, of them only those `old` takes by their creation time (a sweep of
 * earlier runs' leftovers must not take a volume a run beside it is using); a volume already gone
 * is fine. Returns how many went.
 */
export async function removeVolumes(
  docker: Docker,
  labels: Record<string, string>,
  old: (createdMs: number) => boolean = () => true
): Promise<number> {
  const { Volumes } = await docker.listVolumes({ filters: labelFilter(labels) })
  // The Engine API reports a volume's creation time; dockerode's types leave it out.
  const created = (v: object) => Date.parse((v as { CreatedAt?: string }).CreatedAt ?? '')
  const gone = (Volumes ?? []).filter(v => old(created(v)))
  await Promise.all(
    gone.map(v =>
      docker
        .getVolume(v.Name)
        .remove()
        .catch(err => {
          if (statusOf(err) !== 404) throw err
        })
    )
  )
  return gone.length
}

export const deploymentLabels = (labels: Record<string, string>, prefix: string) => ({
  ...labels,
  [LABEL.deployment]: prefix
})
