import {
  callBurst,
  callPaced,
  grpcClient,
  statusName,
  whenConnected,
  type GrpcTarget
} from '../../client/grpc-load'
import { grpcTarget } from '../../client/grpc-request'
import type { TraceStart } from '../../client/trace-context'
import {
  keepAliveAgent,
  sendBurst,
  sendPaced,
  type HttpTarget,
  type RequestRecord
} from '../../client/http-load'
import type { Deployment } from '../../engine/types'
import { keepFor } from '../../metrics/http'
import { isGrpcLoad } from '../../topology/http-schema'
import type { HttpTopology } from '../../topology/schema'

/**
 * What a generic topology's profile sends through: HTTP requests or unary gRPC calls, each on the
 * same open-loop schedule and giving the same records. One driver serves a whole profile (one
 * keep-alive agent, one gRPC channel), so only its warm-up connects.
 */
export interface LoadDriver {
  /** `POST http://…/` or `gRPC pkg.Service/Method at host:port`, for the log and errors. */
  what: string
  /** Bytes of one request's payload. */
  requestBytes: number
  /** A run's requests: at once (rate null) or paced from `startAtMs`; `trace` starts traces. */
  send(
    rate: number | null,
    count: number,
    opts?: { startAtMs?: number; trace?: TraceStart }
  ): Promise<RequestRecord[]>
  /** The name failed requests are counted by (gRPC's status), or null to quote the first alone. */
  errorKind: ((r: RequestRecord) => string) | null
  close(): void
}

/** Opens a driver for one profile or sweep step. */
export type OpenDriver = () => Promise<LoadDriver>

/** Where and what the HTTP driver sends: the load service's first replica, as this host reaches it. */
export function httpTarget(dep: Deployment, topology: HttpTopology): HttpTarget {
  const { host, port } = dep.frontend
  const { load, hops } = topology
  if (isGrpcLoad(load)) throw new Error('a gRPC load has no HTTP target')
  return {
    url: `http://${host}:${port}${load.path}`,
    method: load.method,
    headers: load.headers,
    body: load.body,
    status: load.status,
    timeoutMs: load.timeoutSec * 1000,
    keep: keepFor(hops)
  }
}

export const httpDriver =
  (target: HttpTarget): OpenDriver =>
  async () => {
    const agent = keepAliveAgent()
    return {
      what: `${target.method} ${target.url}`,
      requestBytes: Buffer.byteLength(target.body ?? ''),
      send: (rate, count, opts = {}) =>
        rate === null
          ? sendBurst(target, count, { agent, trace: opts.trace })
          : sendPaced(target, rate, count, { agent, ...opts }),
      errorKind: null,
      close: () => agent.destroy()
    }
  }

/**
 * The gRPC driver for a deployment: the target is made once (a reflection lookup asks the running
 * service), and each profile opens its own channel, connected before its schedule starts.
 */
export function grpcDriver(dep: Deployment, topology: HttpTopology): OpenDriver {
  const { load } = topology
  if (!isGrpcLoad(load)) throw new Error('an HTTP load has no gRPC target')
  const { host, port } = dep.frontend
  const address = `${host.includes(':') ? `[${host}]` : host}:${port}`
  let target: Promise<GrpcTarget> | null = null
  return async () => {
    target ??= grpcTarget(load.grpc, address)
    const t = await target
    const client = grpcClient(t)
    try {
      await whenConnected(client, address, t.deadlineMs)
    } catch (err) {
      client.close()
      throw err
    }
    return {
      what: `gRPC ${load.grpc.call} at ${address}`,
      requestBytes: t.request.length,
      send: (rate, count, opts = {}) =>
        rate === null
          ? callBurst(client, t, count, { trace: opts.trace })
          : callPaced(client, t, rate, count, opts),
      errorKind: r => (r.status === null ? 'no status' : statusName(r.status)),
      close: () => client.close()
    }
  }
}

/** The driver a generic topology's load asks for. */
export const loadDriver = (dep: Deployment, topology: HttpTopology): OpenDriver =>
  isGrpcLoad(topology.load) ? grpcDriver(dep, topology) : httpDriver(httpTarget(dep, topology))
