import * as grpc from '@grpc/grpc-js'
import type { SpanCollector } from './collector'
import { MAX_BODY_BYTES } from './http-receiver'
import type { TraceProtos } from './proto'
import { spansOf } from './span'

/** OTLP/gRPC (TraceService/Export) on `host`, a free port when `port` is 0. */
export async function listenGrpc(
  host: string,
  port: number,
  collector: SpanCollector,
  protos: TraceProtos
): Promise<{ port: number; close(): Promise<void> }> {
  const server = new grpc.Server({
    'grpc.max_receive_message_length': MAX_BODY_BYTES,
    'grpc.max_send_message_length': 1 << 16
  })
  server.addService(protos.service, {
    Export(call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) {
      try {
        const { spans, malformed } = spansOf(call.request)
        collector.drop('malformed', malformed)
        collector.add(spans)
        callback(null, {})
      } catch {
        collector.drop('malformed')
        callback({
          code: grpc.status.INVALID_ARGUMENT,
          details: 'not an ExportTraceServiceRequest'
        })
      }
    }
  })
  const address = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`
  const bound = await new Promise<number>((resolve, reject) =>
    server.bindAsync(address, grpc.ServerCredentials.createInsecure(), (err, p) =>
      err ? reject(err) : resolve(p)
    )
  )
  return {
    port: bound,
    close: async () => server.forceShutdown()
  }
}
