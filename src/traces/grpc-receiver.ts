import * as grpc from '@grpc/grpc-js'
import type { ServiceDefinition } from '@grpc/proto-loader'
import type { DropCounts, SpanCollector } from './collector'
import { MAX_BODY_BYTES } from './http-receiver'
import type { TraceProtos } from './proto'
import { spansOf } from './span'

/**
 * gRPC itself refuses a message past its own limit before any handler sees it, uncounted: that
 * limit sits above the receiver's cap, so a message between the two is counted as too large.
 */
const GRPC_LIMIT = 4 * MAX_BODY_BYTES

/** A message that never became a request, and why. */
class Refused {
  constructor(readonly reason: keyof DropCounts) {}
}

/** TraceService whose Export request decodes to `Refused` instead of failing inside gRPC. */
function countingService(protos: TraceProtos): ServiceDefinition {
  const exportMethod = protos.service.Export
  const decode = exportMethod.requestDeserialize
  return {
    Export: {
      ...exportMethod,
      requestDeserialize: (bytes: Buffer) => {
        if (bytes.length > MAX_BODY_BYTES) return new Refused('tooLarge')
        try {
          return decode(bytes)
        } catch {
          return new Refused('malformed')
        }
      }
    }
  }
}

/** OTLP/gRPC (TraceService/Export) on `host`, a free port when `port` is 0. */
export async function listenGrpc(
  host: string,
  port: number,
  collector: SpanCollector,
  protos: TraceProtos
): Promise<{ port: number; close(): Promise<void> }> {
  const server = new grpc.Server({
    'grpc.max_receive_message_length': GRPC_LIMIT,
    'grpc.max_send_message_length': 1 << 16
  })
  server.addService(countingService(protos), {
    Export(call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) {
      const refuse = (reason: keyof DropCounts) => {
        collector.drop(reason)
        callback({ code: grpc.status.INVALID_ARGUMENT, details: `refused: ${reason}` })
      }
      if (call.request instanceof Refused) return refuse(call.request.reason)
      try {
        const { spans, malformed } = spansOf(call.request)
        collector.drop('malformed', malformed)
        collector.add(spans)
      } catch {
        return refuse('malformed')
      }
      callback(null, {})
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
