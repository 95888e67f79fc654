import * as path from 'node:path'
import type { GrpcLoad } from './grpc-schema'
import { loadProto, messageProblem, protoCall } from './grpc-proto'

type Fail = (where: string, msg: string) => never

/**
 * A gRPC load's .proto, resolved beside the topology file (`dir`) and checked before anything
 * starts: it parses, defines the call as a unary method, and its message has the data's fields.
 * With `reflection` the definitions come from the running service, and are checked then.
 */
export function checkGrpcLoad(load: GrpcLoad, dir: string, fail: Fail): GrpcLoad {
  const { proto, call, data } = load.grpc
  if (proto === undefined) return load
  const file = path.resolve(dir, proto)
  let root
  try {
    root = loadProto(file)
  } catch (err) {
    return fail('load.grpc.proto', `${file}: ${(err as Error).message}`)
  }
  const found = protoCall(root, call)
  if (typeof found === 'string') return fail('load.grpc.call', `${file}: ${found}`)
  const problem = messageProblem(found.request, data)
  if (problem) fail('load.grpc.data', `${file}, ${call}: ${problem}`)
  return { ...load, grpc: { ...load.grpc, proto: file } }
}
