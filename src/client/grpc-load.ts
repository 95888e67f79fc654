/**
 * The gRPC load driver: unary calls on @grpc/grpc-js, on the open-loop schedule the HTTP driver
 * keeps (./open-loop.ts). The request is encoded once (the caller hands over its bytes), so a call
 * costs the transport alone; answers are not decoded, only their status is kept.
 */
import * as grpc from '@grpc/grpc-js'
import { z } from 'zod'
import type { RequestRecord } from './http-load'
import { checkSchedule, nowMs, openLoop } from './open-loop'
import { startTrace, type TraceStart } from './trace-context'

export const GrpcTargetSchema = z
  .object({
    /** host:port of the service. */
    address: z.string().regex(/^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$/, 'host:port'),
    /** `/package.Service/Method`. */
    path: z.string().regex(/^\/[A-Za-z0-9_.]+\/[A-Za-z0-9_]+$/, '/package.Service/Method'),
    /** The encoded request message. */
    request: z.instanceof(Buffer),
    metadata: z.record(z.string()),
    /** Accepted status codes; any other is recorded as an error named by its status. */
    status: z.array(z.number().int().min(0).max(16)).min(1),
    /** Each call's deadline from its send; at most what a Node timer holds. */
    deadlineMs: z
      .number()
      .positive()
      .max(2 ** 31 - 1)
  })
  .strict()
export type GrpcTarget = z.infer<typeof GrpcTargetSchema>

export interface GrpcSendOptions {
  /** Epoch milliseconds at which a paced schedule starts (as the HTTP driver's `startAtMs`). */
  startAtMs?: number
  /** Traces a sampled share of calls: `traceparent` in the call's metadata, its id in the record. */
  trace?: TraceStart
}

/** gRPC's name of a status code (`DEADLINE_EXCEEDED`), or the number when gRPC has none. */
export const statusName = (code: number): string => grpc.status[code] ?? String(code)

/** A channel to the target's service; one per profile, so only its first call connects. */
export const grpcClient = (target: GrpcTarget): grpc.Client =>
  new grpc.Client(target.address, grpc.credentials.createInsecure(), {
    // Answers are only counted, never decoded: a large one must not fail as RESOURCE_EXHAUSTED.
    'grpc.max_receive_message_length': -1
  })

/** Waits until the channel connects, or throws naming the address, before any schedule starts. */
export async function whenConnected(client: grpc.Client, address: string, ms: number) {
  await new Promise<void>((resolve, reject) =>
    client.waitForReady(Date.now() + ms, err =>
      err ? reject(new Error(`gRPC service at ${address}: ${err.message}`)) : resolve()
    )
  )
}

interface Prepared {
  path: string
  request: Buffer
  metadata: grpc.Metadata
  accepted: Set<number>
  deadlineMs: number
  trace?: TraceStart
}

/** Validates the target once, so a bad one throws here and never per call. */
function prepare(target: GrpcTarget, opts: GrpcSendOptions): Prepared {
  const parsed = GrpcTargetSchema.safeParse(target)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new Error(`bad gRPC target: ${issue.path.join('.') || 'target'} ${issue.message}`)
  }
  const t = parsed.data
  const metadata = new grpc.Metadata()
  for (const [k, v] of Object.entries(t.metadata)) metadata.set(k, v)
  return {
    path: t.path,
    request: t.request,
    metadata,
    accepted: new Set(t.status),
    deadlineMs: t.deadlineMs,
    trace: opts.trace
  }
}

const bytes = (b: Buffer): Buffer => b

/** The service's own words on a failed call are its text: kept to a line's worth. */
const MAX_DETAILS = 200

/** Makes one call; always resolves, a status outside the accepted ones becomes the error. */
function call(p: Prepared, client: grpc.Client, scheduled: number | null): Promise<RequestRecord> {
  return new Promise(resolve => {
    const traced = startTrace(p.trace)
    const metadata = traced ? p.metadata.clone() : p.metadata
    if (traced) metadata.set('traceparent', traced.traceparent)
    const sent = nowMs()
    const options = { deadline: new Date(sent + p.deadlineMs) }
    client.makeUnaryRequest(p.path, bytes, bytes, p.request, metadata, options, err => {
      const done = nowMs()
      const status = err ? err.code : grpc.status.OK
      const detail = err?.details ? `: ${err.details.slice(0, MAX_DETAILS)}` : ''
      resolve({
        scheduled: scheduled === null ? null : scheduled / 1000,
        sent: sent / 1000,
        done: done / 1000,
        status,
        error: p.accepted.has(status) ? null : `${statusName(status)}${detail}`,
        ...(traced && { traceId: traced.traceId })
      })
    })
  })
}

/** Open loop over `client`: call i is due at t0 + i/rate. Records come back in call order. */
export async function callPaced(
  client: grpc.Client,
  target: GrpcTarget,
  rate: number,
  count: number,
  opts: GrpcSendOptions = {}
): Promise<RequestRecord[]> {
  checkSchedule(rate, count)
  const p = prepare(target, opts)
  return openLoop(rate, count, due => call(p, client, due), opts.startAtMs)
}

/** Every call made at once. */
export async function callBurst(
  client: grpc.Client,
  target: GrpcTarget,
  count: number,
  opts: GrpcSendOptions = {}
): Promise<RequestRecord[]> {
  checkSchedule(null, count)
  const p = prepare(target, opts)
  return Promise.all(Array.from({ length: count }, () => call(p, client, null)))
}
