import { SpanCollector, type SettleOptions, type TraceCounts } from './collector'
import { listenGrpc } from './grpc-receiver'
import { listenHttp } from './http-receiver'
import { traceProtos } from './proto'
import type { Span } from './span'

/**
 * The benchmark's OTLP receiver for one deployment: OTLP/HTTP (protobuf or JSON, gzip or not) and
 * OTLP/gRPC, both on one host address that the topology's services reach and nothing else needs
 * to. It keeps the spans of the traces the driver started, counts everything it drops, and never
 * throws into the run.
 */
export interface TraceReceiver {
  /** The OTLP/HTTP endpoint: http://host:port (the SDKs add /v1/traces). */
  readonly httpEndpoint: string
  /** The OTLP/gRPC endpoint: host:port. */
  readonly grpcEndpoint: string
  expect(traceId: string, rootParent: string): void
  settle(traceIds: readonly string[], opts: SettleOptions): Promise<void>
  /** Whether the trace is whole so far (its root and every span's parent); ask before `take`. */
  complete(traceId: string): boolean
  take(traceId: string): Span[]
  counts(): TraceCounts
  /** Stops listening; later spans count as after close. Idempotent. */
  close(): Promise<void>
}

const hostPort = (host: string, port: number): string =>
  host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`

/** Listens on `host` (free ports unless given); resolves once both listen. */
export async function startTraceReceiver(
  host: string,
  ports: { http: number; grpc: number } = { http: 0, grpc: 0 }
): Promise<TraceReceiver> {
  const protos = traceProtos()
  const collector = new SpanCollector()
  const httpServer = await listenHttp(host, ports.http, collector, protos)
  let grpcServer: Awaited<ReturnType<typeof listenGrpc>>
  try {
    grpcServer = await listenGrpc(host, ports.grpc, collector, protos)
  } catch (err) {
    await httpServer.close()
    throw err
  }
  let closing: Promise<void> | undefined
  return {
    httpEndpoint: `http://${hostPort(host, httpServer.port)}`,
    grpcEndpoint: hostPort(host, grpcServer.port),
    expect: (traceId, rootParent) => collector.expect(traceId, rootParent),
    settle: (traceIds, opts) => collector.settle(traceIds, opts),
    complete: traceId => collector.complete(traceId),
    take: traceId => collector.take(traceId),
    counts: () => collector.counts(),
    close: () =>
      (closing ??= (async () => {
        collector.close()
        await Promise.allSettled([httpServer.close(), grpcServer.close()])
      })())
  }
}
