import * as protoLoader from '@grpc/proto-loader'
import * as protobuf from 'protobufjs'
import { assetPath } from '../paths'

/** The pinned opentelemetry-proto files (proto/README.md), shared by OTLP/gRPC and OTLP/HTTP. */
const PROTO_ROOT = (): string => assetPath('src', 'traces', 'proto')
const SERVICE_FILE = 'opentelemetry/proto/collector/trace/v1/trace_service.proto'
const PACKAGE = 'opentelemetry.proto.collector.trace.v1'

/** Ids stay bytes, 64-bit times become decimal strings, enums numbers: what `spansOf` reads. */
const OPTIONS = { longs: String, enums: Number, defaults: false, arrays: true } as const

export interface TraceProtos {
  /** TraceService's definition for a gRPC server. */
  service: protoLoader.ServiceDefinition
  /** An OTLP/HTTP protobuf body as a plain object; throws when it does not decode. */
  decodeRequest(body: Uint8Array): unknown
  /** ExportTraceServiceResponse with every field at its default: a full success. */
  emptyResponse: Uint8Array
}

let loaded: TraceProtos | undefined

/** Loaded once per process: parsing the files takes some tens of milliseconds. */
export function traceProtos(): TraceProtos {
  if (loaded) return loaded
  const includeDirs = [PROTO_ROOT()]
  const definition = protoLoader.loadSync(SERVICE_FILE, { ...OPTIONS, includeDirs })
  const service = definition[`${PACKAGE}.TraceService`] as protoLoader.ServiceDefinition
  const root = new protobuf.Root()
  root.resolvePath = (_origin, target) => `${PROTO_ROOT()}/${target}`
  root.loadSync(SERVICE_FILE)
  const request = root.lookupType(`${PACKAGE}.ExportTraceServiceRequest`)
  const response = root.lookupType(`${PACKAGE}.ExportTraceServiceResponse`)
  loaded = {
    service,
    decodeRequest: body => request.toObject(request.decode(body), OPTIONS),
    emptyResponse: response.encode(response.create({})).finish()
  }
  return loaded
}
