import * as grpc from '@grpc/grpc-js'
import { GrpcReflection } from 'grpc-js-reflection-client'
import type * as protobuf from 'protobufjs'
import type { GrpcCall } from '../topology/grpc-schema'
import { encodeRequest, loadProto, messageProblem, protoCall } from '../topology/grpc-proto'
import type { GrpcTarget } from './grpc-load'

/**
 * A gRPC load's target: the call's definitions from its .proto (checked when the topology was
 * read) or from the running service by server reflection, and the request encoded once.
 */

/** The reflection versions asked for, newest first: a server may speak either. */
const REFLECTION_VERSIONS = ['v1', 'v1alpha']

/** The definitions behind `symbol` from the service's reflection, or an error naming what failed. */
async function reflectedRoot(address: string, symbol: string, ms: number): Promise<protobuf.Root> {
  const errors: string[] = []
  for (const version of REFLECTION_VERSIONS) {
    const reflection = new GrpcReflection(address, grpc.credentials.createInsecure(), {}, version)
    try {
      const found = await reflection.getDescriptorBySymbol(symbol, undefined, {
        deadline: Date.now() + ms
      })
      const root = found.getProtobufJsRoot()
      root.resolveAll()
      return root
    } catch (err) {
      errors.push(`${version}: ${(err as Error).message}`)
    } finally {
      // The client keeps its channel to itself; closed here, or it would outlive the lookup.
      ;(reflection as unknown as { client?: grpc.Client }).client?.close()
    }
  }
  throw new Error(`gRPC server reflection at ${address} gave no '${symbol}' (${errors.join('; ')})`)
}

/** What the driver sends for `load` to `address` (host:port); throws naming the source's problem. */
export async function grpcTarget(load: GrpcCall, address: string): Promise<GrpcTarget> {
  const deadlineMs = load.deadlineSec * 1000
  const service = load.call.split('/')[0]
  const source = load.proto ?? `reflection at ${address}`
  const root =
    load.proto !== undefined
      ? loadProto(load.proto)
      : await reflectedRoot(address, service, deadlineMs)
  const found = protoCall(root, load.call)
  if (typeof found === 'string') throw new Error(`${source}: ${found}`)
  const problem = messageProblem(found.request, load.data)
  if (problem) throw new Error(`${source}, ${load.call}: ${problem}`)
  return {
    address,
    path: found.path,
    request: encodeRequest(found.request, load.data),
    metadata: load.metadata,
    status: load.status,
    deadlineMs
  }
}
