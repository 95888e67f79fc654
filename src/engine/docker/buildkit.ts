import type Docker from 'dockerode'
import * as protobuf from 'protobufjs'
import { buildFailure } from './image-build'

/**
 * Builds through the daemon's BuildKit, as `docker build` and `docker compose build` make them:
 * the Engine API's POST /build with `version=2` and the context's tar as the body (BuildKit loads
 * it as a remote context, so no session is needed; Docker 20.10 and later). Its progress arrives
 * as `moby.buildkit.trace` events, each a base64 StatusResponse of BuildKit's control API.
 */

/** The part of BuildKit's control.proto that a log needs: steps, their errors and output. */
export const TRACE = protobuf.Root.fromJSON({
  nested: {
    Ts: { fields: { seconds: { type: 'int64', id: 1 } } },
    Vertex: {
      fields: {
        digest: { type: 'string', id: 1 },
        name: { type: 'string', id: 3 },
        cached: { type: 'bool', id: 4 },
        started: { type: 'Ts', id: 5 },
        completed: { type: 'Ts', id: 6 },
        error: { type: 'string', id: 7 }
      }
    },
    VertexLog: { fields: { vertex: { type: 'string', id: 1 }, msg: { type: 'bytes', id: 4 } } },
    StatusResponse: {
      fields: {
        vertexes: { rule: 'repeated', type: 'Vertex', id: 1 },
        logs: { rule: 'repeated', type: 'VertexLog', id: 3 }
      }
    }
  }
}).lookupType('StatusResponse')

interface Vertex {
  digest: string
  name: string
  cached?: boolean
  started?: object
  completed?: object
  error?: string
}

export interface TraceStatus {
  vertexes: Vertex[]
  logs: { vertex: string; msg: Uint8Array }[]
}

export const decodeTrace = (aux: string): TraceStatus =>
  TRACE.toObject(TRACE.decode(Buffer.from(aux, 'base64')), {
    defaults: true
  }) as TraceStatus

/** What a build's trace tells: each step once as it starts, its output, the step that failed. */
export class TraceLog {
  private readonly seen = new Set<string>()
  private readonly names = new Map<string, string>()
  failedStep: string | null = null
  readonly tail: string[] = []

  constructor(private readonly log: (line: string) => void) {}

  private keep(line: string): void {
    this.tail.push(line)
    if (this.tail.length > 40) this.tail.shift()
  }

  add(status: TraceStatus): void {
    for (const v of status.vertexes) {
      this.names.set(v.digest, v.name)
      if (v.error) this.failedStep ??= v.name
      if ((v.started || v.cached) && !this.seen.has(v.digest)) {
        this.seen.add(v.digest)
        const line = v.cached ? `CACHED ${v.name}` : v.name
        this.keep(line)
        this.log(line)
      }
    }
    for (const l of status.logs) {
      for (const line of Buffer.from(l.msg).toString('utf8').split(/\r?\n/)) {
        if (line.trim()) this.keep(`${this.names.get(l.vertex) ?? ''} ${line}`.trim())
      }
    }
  }
}

/** Builds `tar` with the daemon's BuildKit; a failure names the step and the build's last lines. */
export async function buildKitBuild(
  docker: Docker,
  tar: NodeJS.ReadableStream,
  options: Docker.ImageBuildOptions,
  what: string,
  log: (line: string) => void
): Promise<void> {
  log(`building ${options.t} (${what}) with BuildKit`)
  const trace = new TraceLog(log)
  try {
    const stream = await docker.buildImage(tar, { ...options, version: '2' })
    await new Promise<void>((resolve, reject) => {
      docker.modem.followProgress(
        stream,
        (err: Error | null, events: { error?: string }[]) => {
          const failed = err?.message ?? events.find(e => e.error)?.error
          if (failed) reject(new Error(failed.trim()))
          else resolve()
        },
        (e: { id?: string; aux?: unknown }) => {
          if (e.id === 'moby.buildkit.trace' && typeof e.aux === 'string')
            trace.add(decodeTrace(e.aux))
        }
      )
    })
  } catch (err) {
    throw buildFailure(what, (err as Error).message, trace.tail, trace.failedStep)
  }
}
