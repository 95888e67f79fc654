import type Docker from 'dockerode'
import { createHash } from 'node:crypto'
import * as fs from 'node:fs'
import { MAX_HANDED_BYTES, type Mount } from '../../topology/http-schema'
import type { ServicePlan } from '../plan/types'
import { statusOf } from '../docker/client'

/**
 * A deployment's Compose secrets and configs as Swarm secrets and configs: each file or text made
 * once per deployment, named after it and labelled with its labels (so its removal and the run's
 * sweep find them), and handed to the services that mount it, which then need not run on the
 * node holding the checkout. A file Swarm cannot hold (a directory, an empty file, one over its
 * limit) stays a bind mount, and the log says so.
 */

type Kind = 'secret' | 'config'

/** A task's reference to a secret or config: where the file goes, read-only for everyone. */
export interface FileRef {
  id: string
  name: string
  target: string
}

/** A service's secrets and configs, and the indexes of the mounts they stand for. */
export interface HandedFiles {
  secrets: FileRef[]
  configs: FileRef[]
  handed: Set<number>
}

interface Made {
  id: string
  name: string
  kind: Kind
}

/**
 * What Swarm takes for a mount: its content and kind, or why a secret or config file stays a bind
 * mount; null for a mount that is neither.
 */
export function handedContent(m: Mount): { content: Buffer; as: Kind } | { stays: string } | null {
  if (m.type === 'text') return { content: Buffer.from(m.content), as: m.as }
  if (m.type !== 'bind' || !m.as) return null
  const stat = fs.statSync(m.source)
  const stays = (why: string) => ({
    stays: `${m.source} stays a bind mount at ${m.target}: ${why}`
  })
  if (!stat.isFile()) return stays('it is a directory')
  if (stat.size === 0) return stays('it is empty, which Swarm does not hold')
  if (stat.size > MAX_HANDED_BYTES) {
    return stays(`it holds ${stat.size} bytes, over the ${MAX_HANDED_BYTES} a Swarm ${m.as} holds`)
  }
  return { content: fs.readFileSync(m.source), as: m.as }
}

/**
 * The first text a Swarm secret or config cannot hold (it holds at least a byte), in words; asked
 * before a deployment creates anything. Pure.
 */
export function emptyTextProblem(services: readonly ServicePlan[]): string | null {
  for (const service of services) {
    const empty = service.mounts.find(m => m.type === 'text' && m.content === '')
    if (empty) {
      return `service '${service.name}' mounts an empty ${empty.type === 'text' ? empty.as : ''} at ${empty.target}, which a Swarm secret or config cannot be: give it a value, or run it with engine: docker`
    }
  }
  return null
}

/** The Engine API's task references, read-only for every user as Compose mounts them. */
export const fileRefs = (refs: FileRef[], kind: Kind) =>
  refs.map(r => ({
    [kind === 'secret' ? 'SecretID' : 'ConfigID']: r.id,
    [kind === 'secret' ? 'SecretName' : 'ConfigName']: r.name,
    // An absolute target is where the file goes, a Compose secret's /run/secrets/<name> included.
    File: { Name: r.target, UID: '0', GID: '0', Mode: 0o444 }
  }))

export class DeploymentFiles {
  /**
   * Made or being made, by kind and content: services mounting the same file share one, and
   * services of one wave start at once.
   */
  private readonly made = new Map<string, Promise<Made>>()

  constructor(
    private readonly docker: Docker,
    private readonly prefix: string,
    private readonly labels: Record<string, string>,
    private readonly log: (line: string) => void
  ) {}

  /** Makes what `service` mounts as secrets and configs, once per deployment, and refers to it. */
  async forService(service: ServicePlan): Promise<HandedFiles> {
    const files: HandedFiles = { secrets: [], configs: [], handed: new Set() }
    for (const [j, m] of service.mounts.entries()) {
      const handed = handedContent(m)
      if (!handed) continue
      if ('stays' in handed) {
        this.log(`${service.name}: ${handed.stays}`)
        continue
      }
      const key = `${handed.as}:${createHash('sha256').update(handed.content).digest('hex')}`
      if (!this.made.has(key)) this.made.set(key, this.make(handed.as, handed.content))
      const { id, name } = await this.made.get(key)!
      files[handed.as === 'secret' ? 'secrets' : 'configs'].push({ id, name, target: m.target })
      files.handed.add(j)
    }
    return files
  }

  private async make(kind: Kind, content: Buffer): Promise<Made> {
    const name = `${this.prefix}-${kind}${this.made.size}`
    const spec = { Name: name, Labels: this.labels, Data: content.toString('base64') }
    const { id } = (await (kind === 'secret'
      ? this.docker.createSecret(spec)
      : this.docker.createConfig(spec))) as { id: string }
    return { id, name, kind }
  }

  /** Removes them, once no task holds them any more; one already gone is fine. */
  async remove(): Promise<void> {
    const made = await Promise.allSettled(this.made.values())
    const ok = made.flatMap(r => (r.status === 'fulfilled' ? [r.value] : []))
    await Promise.all(
      ok.map(m =>
        (m.kind === 'secret' ? this.docker.getSecret(m.id) : this.docker.getConfig(m.id))
          .remove()
          .catch(err => {
            if (statusOf(err) !== 404) throw err
          })
      )
    )
  }
}
