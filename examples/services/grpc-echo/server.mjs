// A gRPC echo service (echo.proto) on @grpc/grpc-js. Environment: PORT (default 50051; 0: any free one), HOP (its
// name, default echo), NEXT (host:port of the next echo service: the call is relayed there and
// its answer extended, so services form a chain), REFLECTION=1 (serve gRPC server reflection,
// needs @grpc/reflection). A request's `status` and `sleep_ms` make it fail or wait, for tests.
import { fileURLToPath } from 'node:url'
import * as grpc from '@grpc/grpc-js'
import * as protoLoader from '@grpc/proto-loader'

const PROTO = fileURLToPath(new URL('echo.proto', import.meta.url))
const definition = protoLoader.loadSync(PROTO, { keepCase: true })
const { echo } = grpc.loadPackageDefinition(definition)
const hop = process.env.HOP || 'echo'
const next = process.env.NEXT
  ? new echo.Echo(process.env.NEXT, grpc.credentials.createInsecure())
  : null

/** Forwards only the trace context: a relay passes the caller's traceparent on. */
function forwarded(metadata) {
  const out = new grpc.Metadata()
  for (const v of metadata.get('traceparent')) out.set('traceparent', v)
  return out
}

function answer(call, callback) {
  const { message, status, sleep_ms: sleep } = call.request
  const reply = (err, downstream) => {
    if (err) return callback(err)
    if (status) return callback({ code: status, details: `${hop} was asked for status ${status}` })
    callback(null, { message, hops: [hop, ...(downstream ? downstream.hops : [])] })
  }
  const go = () =>
    next
      ? next.Say({ message, status, sleep_ms: 0 }, forwarded(call.metadata), reply)
      : reply(null, null)
  if (sleep) setTimeout(go, sleep)
  else go()
}

const server = new grpc.Server()
server.addService(echo.Echo.service, { Say: answer })
if (process.env.REFLECTION === '1') {
  const { ReflectionService } = await import('@grpc/reflection')
  new ReflectionService(definition).addToServer(server)
}
const port = process.env.PORT || '50051'
server.bindAsync(`0.0.0.0:${port}`, grpc.ServerCredentials.createInsecure(), (err, bound) => {
  if (err) throw err
  console.log(`${hop} listening on ${bound}`)
})
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => server.forceShutdown())
