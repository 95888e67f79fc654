/** The load driver starting traces: `traceparent` on the sampled share, each trace id announced. */
import * as http from 'node:http'
import type { AddressInfo } from 'node:net'
import { sendBurst, sendPaced, type HttpTarget } from '../src/client/http-load'

let server: http.Server
let seen: (string | undefined)[]
let target: HttpTarget

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push(req.headers.traceparent as string | undefined)
    res.end('ok')
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  target = {
    url: `http://127.0.0.1:${port}/`,
    method: 'GET',
    headers: {},
    body: null,
    status: [200],
    timeoutMs: 5000,
    keep: 'none'
  }
})
beforeEach(() => (seen = []))
afterAll(() => new Promise(resolve => server.close(resolve)))

test('every traced request sends the trace it announced, sampled flag set', async () => {
  const started: [string, string][] = []
  const records = await sendPaced(target, 200, 20, {
    trace: { sample: 1, started: (t, p) => started.push([t, p]) }
  })
  expect(records.every(r => r.traceId !== undefined)).toBe(true)
  expect(new Set(records.map(r => r.traceId)).size).toBe(20)
  // Each request carries its own record's trace id and the parent span id announced for it.
  const byTrace = new Map(started)
  expect(seen.sort()).toEqual(
    records.map(r => `00-${r.traceId}-${byTrace.get(r.traceId!)}-01`).sort()
  )
  expect(seen.every(h => /^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/.test(h!))).toBe(true)
})

test('a share of requests is traced as stated, none without tracing', async () => {
  const records = await sendBurst(target, 400, {
    trace: { sample: 0.5, started: () => undefined }
  })
  const traced = records.filter(r => r.traceId !== undefined).length
  // 400 draws of a fair coin: 5 standard deviations (±50) either side.
  expect(traced).toBeGreaterThan(150)
  expect(traced).toBeLessThan(250)
  expect(seen.filter(h => h !== undefined)).toHaveLength(traced)
  seen = []
  const plain = await sendBurst(target, 20)
  expect(plain.some(r => 'traceId' in r)).toBe(false)
  expect(seen.every(h => h === undefined)).toBe(true)
})
