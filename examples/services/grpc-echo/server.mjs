// A gRPC echo service (echo.proto) on @grpc/grpc-js. Environment: PORT (default 50051; 0: any free one), HOP (its
// name, default echo), NEXT (host:port of the next echo service: the call is relayed there and
// its answer extended, so services form a chain), REFLECTION=1 (serve gRPC server reflection,
// needs @grpc/reflection), OTEL_EXPORTER_OTLP_ENDPOINT (export a span per traced call and per
// relayed call, otlp.mjs). A request's `status` and `sleep_ms` make it fail or wait, for tests.
import { fileURLToPath } from 'node:url'
import * as grpc from '@grpc/grpc-js'
import * as protoLoader from '@grpc/proto-loader'
import { CLIENT, continued, exportEvery, flush, SERVER, startSpan } from './otlp.mjs'

const PROTO = fileURLToPath(new URL('echo.proto', import.meta.url))
const definition = protoLoader.loadSync(PROTO, { keepCase: true })
const { echo } = grpc.loadPackageDefinition(definition)
const hop = process.env.HOP || 'echo'
const next = process.env.NEXT
  ? new echo.Echo(process.env.NEXT, grpc.credentials.createInsecure())
  : null

/**
 * Forwards only the trace context: a traced relay its own client span's, else the caller's
 * traceparent as it came.
 */
function forwarded(metadata, client) {
  const out = new grpc.Metadata()
  if (client) out.set('traceparent', client.traceparent())
  else for (const v of metadata.get('traceparent')) out.set('traceparent', v)
  return out
}

function answer(call, callback) {
  const { message, status, sleep_ms: sleep } = call.request
  const trace = continued(call.metadata.get('traceparent')[0])
  const server = trace && startSpan(`echo.Echo/Say ${hop}`, SERVER, trace)
  const done = (err, value) => {
    server?.end(err ? err.code : 0)
    callback(err, value)
  }
  const reply = (err, downstream) => {
    if (err) return done(err)
    if (status) return done({ code: status, details: `${hop} was asked for status ${status}` })
    done(null, { message, hops: [hop, ...(downstream ? downstream.hops : [])] })
  }
  const relay = () => {
    const client = server && startSpan(`echo.Echo/Say ${process.env.NEXT}`, CLIENT, server.child())
    next.Say({ message, status, sleep_ms: 0 }, forwarded(call.metadata, client), (err, value) => {
      client?.end(err ? err.code : 0)
      reply(err, value)
    })
  }
  const go = () => (next ? relay() : reply(null, null))
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
exportEvery(hop)
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, async () => {
    server.forceShutdown()
    await flush(hop) // what is still batched
    process.exit(0) // the channel to the next service would keep it alive
  })
}
