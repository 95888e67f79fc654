/**
 * The HTTP load driver against real node:http servers on loopback (started here, no mocks), and
 * the HTTP metrics on its records and on constructed ones. @runs-alone: it times the schedule.
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import * as http from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  KEPT_BODY_LIMIT,
  sendBurst,
  sendPaced,
  type HttpTarget,
  type RequestRecord
} from '../src/client/http-load'
import {
  MAX_HOPS,
  burstHttpSamples,
  httpRunInput,
  keepFor,
  pacedHttpSamples,
  parseServerTiming
} from '../src/metrics/http'
import { summarizeRun } from '../src/metrics/run-result'
import { RunResultSchema } from '../src/metrics/schema'
import { median, quantile } from '../src/stats/sample'

const now = (): number => (performance.timeOrigin + performance.now()) / 1000
const sorted = (xs: number[]): number[] => [...xs].sort((a, b) => a - b)
const p = (xs: number[], q: number): number => quantile(sorted(xs), q)

interface Server {
  url: string
  close: () => Promise<void>
}

async function serve(handler: http.RequestListener): Promise<Server> {
  const server = http.createServer(handler)
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise(resolve => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

/**
 * A server in its own process that answers at once: a stall of the test's event loop is then the
 * client's alone, as when the driver and the services are separate processes.
 */
async function serveApart(): Promise<Server> {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `require('node:http').createServer((q, s) => s.end('ok'))
         .listen(0, '127.0.0.1', function () { console.log(this.address().port) })`
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] }
  )
  const [port] = (await once(child.stdout!, 'data')) as [Buffer]
  return {
    url: `http://127.0.0.1:${String(port).trim()}`,
    close: async () => {
      child.kill()
      await once(child, 'exit')
    }
  }
}

const target = (url: string, more: Partial<HttpTarget> = {}): HttpTarget => ({
  url,
  method: 'GET',
  headers: {},
  body: null,
  status: [200],
  timeoutMs: 5000,
  keep: 'none',
  ...more
})

/** Answers at once with "ok". */
const ok: http.RequestListener = (_req, res) => res.end('ok')

describe('sendPaced', () => {
  let server: Server
  beforeAll(async () => (server = await serve(ok)))
  afterAll(() => server.close())

  it('keeps the schedule: 40 requests at 50 req/s go out 20 ms apart, on time', async () => {
    const records = await sendPaced(target(`${server.url}/`), 50, 40)
    expect(records).toHaveLength(40)
    expect(records.every(r => r.status === 200 && r.error === null)).toBe(true)
    const t0 = records[0].scheduled!
    records.forEach((r, i) => expect(r.scheduled! - t0).toBeCloseTo(i * 0.02, 6))
    const { samples } = pacedHttpSamples(records, null)
    // The ticker wakes within some 0.1 ms; a loaded CI machine adds a few ms now and then.
    expect(median(samples['c:lag'])).toBeLessThan(0.002)
    expect(p(samples['c:lag'], 0.9)).toBeLessThan(0.01)
    expect(median(samples['latency:sent'])).toBeLessThan(0.01)
    // Sent in request order, and done after sent.
    records.slice(1).forEach((r, i) => expect(r.sent).toBeGreaterThan(records[i].sent))
    records.forEach(r => expect(r.done).toBeGreaterThanOrEqual(r.sent))
  })

  it('starts the schedule at startAtMs, so two drivers share one clock', async () => {
    const at = Date.now() + 300
    const [a, b] = await Promise.all([
      sendPaced(target(`${server.url}/`), 50, 10, { startAtMs: at }),
      sendPaced(target(`${server.url}/`), 50, 10, { startAtMs: at + 10 })
    ])
    a.forEach((r, i) => expect(r.scheduled! * 1000).toBeCloseTo(at + i * 20, 3))
    b.forEach((r, i) => expect(r.scheduled! * 1000).toBeCloseTo(at + 10 + i * 20, 3))
    // Nothing goes before its time.
    for (const r of [...a, ...b]) expect(r.sent).toBeGreaterThanOrEqual(r.scheduled! - 0.001)
  })

  it('keeps sending while a slow server holds 20 requests: all 20 show the hold, not one', async () => {
    // Every request that arrives 0.3–0.7 s into the schedule is answered 1 s late: the window is
    // on the schedule's clock (no request leaves before its time), not on the first arrival's,
    // which a slow first connection would shift.
    const at = Date.now() + 200
    let inFlight = 0
    let maxInFlight = 0
    const holding = await serve((_req, res) => {
      const t = Date.now() - at
      inFlight++
      maxInFlight = Math.max(maxInFlight, inFlight)
      const held = t >= 300 && t < 700
      setTimeout(() => res.end('ok', () => inFlight--), held ? 1000 : 0)
    })
    try {
      const records = await sendPaced(target(`${holding.url}/`), 50, 40, { startAtMs: at })
      const { samples, errors } = pacedHttpSamples(records, null)
      expect(errors).toBe(0)
      // 0.9 s, not 1 s: Node's timers may fire up to a millisecond early against the monotonic
      // clock the records use.
      const slow = samples.latency.filter(l => l >= 0.9)
      // A closed-loop client would have waited on the first held request and sent none of the
      // next 19 on time: one slow sample. Open loop, every request in the window is one.
      expect(slow.length).toBeGreaterThanOrEqual(19)
      expect(slow.length).toBeLessThanOrEqual(21)
      expect(Math.max(...slow)).toBeLessThan(1.1)
      expect(samples.latency.filter(l => l < 0.1)).toHaveLength(40 - slow.length)
      // The system's own delay: it shows in latency:sent too, and the schedule was kept.
      expect(samples['latency:sent'].filter(l => l >= 0.9)).toHaveLength(slow.length)
      expect(p(samples['c:lag'], 0.9)).toBeLessThan(0.01)
      expect(maxInFlight).toBeGreaterThanOrEqual(19)
    } finally {
      await holding.close()
    }
  })

  it('corrects for a stalled client: overdue requests go out at once and latency keeps the wait', async () => {
    const apart = await serveApart()
    let stall: [number, number] = [0, 0]
    // A 500 ms busy-wait on the event loop 0.3 s in, while some 25 requests fall due.
    setTimeout(() => {
      const from = now()
      while (now() - from < 0.5);
      stall = [from, now()]
    }, 300)
    const records = await sendPaced(target(`${apart.url}/`), 50, 50).finally(apart.close)
    const [from, to] = stall
    expect(to - from).toBeGreaterThanOrEqual(0.5)
    const overdue = records.filter(r => r.scheduled! > from && r.scheduled! < to)
    expect(overdue.length).toBeGreaterThanOrEqual(24)
    expect(overdue.length).toBeLessThanOrEqual(26)
    const { samples } = pacedHttpSamples(overdue, null)
    overdue.forEach(r => expect(r.sent).toBeGreaterThanOrEqual(to))
    // Each waited from its due time to the stall's end: the oldest almost 0.5 s, the newest ~0.
    samples['c:lag'].forEach((lag, i) => expect(lag).toBeCloseTo(to - overdue[i].scheduled!, 1))
    expect(Math.max(...samples.latency)).toBeGreaterThan(0.45)
    expect(median(samples.latency)).toBeGreaterThan(0.2)
    // Measured from the actual send, the stall vanishes: what an uncorrected client reports.
    expect(Math.max(...samples['latency:sent'])).toBeLessThan(0.1)
  })

  it('records timeouts, unexpected statuses and refused connections as errors, never throws', async () => {
    const mixed = await serve((req, res) => {
      if (req.url === '/slow') return // never answers
      if (req.url === '/bad') {
        res.statusCode = 503
        return res.end('busy')
      }
      if (req.url === '/trickle') {
        res.writeHead(200, { 'content-length': '100' })
        return res.write('partial') // and the rest never comes
      }
      if (req.url === '/cut') {
        res.writeHead(200, { 'content-length': '100' })
        res.write('partial')
        return setTimeout(() => res.destroy(), 20)
      }
      res.end('ok')
    })
    try {
      const slow = await sendPaced(target(`${mixed.url}/slow`, { timeoutMs: 200 }), 20, 2)
      slow.forEach(r => {
        expect(r).toMatchObject({ status: null, error: 'no answer within 200 ms' })
        expect(r.done - r.sent).toBeGreaterThanOrEqual(0.195)
        expect(r.done - r.sent).toBeLessThan(0.5)
      })
      const [trickle] = await sendBurst(target(`${mixed.url}/trickle`, { timeoutMs: 200 }), 1)
      expect(trickle).toMatchObject({ status: null, error: 'no answer within 200 ms' })
      const [bad] = await sendPaced(target(`${mixed.url}/bad`, { keep: 'body' }), 20, 1)
      expect(bad).toMatchObject({ status: 503, error: 'unexpected status 503' })
      expect(bad.body).toBeUndefined()
      const [accepted] = await sendPaced(
        target(`${mixed.url}/bad`, { status: [200, 503], keep: 'body' }),
        20,
        1
      )
      expect(accepted).toMatchObject({ status: 503, error: null, body: 'busy' })
      const [cut] = await sendPaced(target(`${mixed.url}/cut`), 20, 1)
      expect(cut.error).not.toBeNull()
      const closed = await serve(ok)
      const refusedUrl = closed.url
      await closed.close()
      const [refused] = await sendBurst(target(refusedUrl), 1)
      expect(refused).toMatchObject({ status: null, error: expect.stringMatching(/ECONNREFUSED/) })

      const all = [...slow, trickle, bad, accepted, cut]
      const m = pacedHttpSamples(all, null)
      expect(m.errors).toBe(5)
      expect(m.samples.latency).toHaveLength(1)
    } finally {
      await mixed.close()
    }
  })

  it('sends method, headers and body, and keeps a body up to its limit', async () => {
    const seen: { method?: string; header?: string; body: string }[] = []
    const echo = await serve((req, res) => {
      let body = ''
      req.on('data', c => (body += c))
      req.on('end', () => {
        seen.push({ method: req.method, header: req.headers['x-case'] as string, body })
        res.end(req.url === '/big' ? 'x'.repeat(KEPT_BODY_LIMIT + 10) : body)
      })
    })
    try {
      const t = target(`${echo.url}/`, {
        method: 'POST',
        headers: { 'x-case': 'chain5' },
        body: '{"payload": "é"}',
        keep: 'body'
      })
      const [r] = await sendBurst(t, 1)
      expect(seen).toEqual([{ method: 'POST', header: 'chain5', body: '{"payload": "é"}' }])
      expect(r.body).toBe('{"payload": "é"}')
      const [big] = await sendBurst({ ...t, url: `${echo.url}/big` }, 1)
      expect(big.body).toHaveLength(KEPT_BODY_LIMIT)
    } finally {
      await echo.close()
    }
  })

  it('throws for a bad target or rate, before sending anything', async () => {
    const u = `${server.url}/`
    await expect(sendPaced(target('ftp://127.0.0.1/'), 10, 1)).rejects.toThrow(
      /bad HTTP target: url must be an http:\/\/ URL/
    )
    await expect(sendPaced(target(u, { method: 'GE T' }), 10, 1)).rejects.toThrow(/method/)
    await expect(sendBurst(target(u, { status: [] }), 1)).rejects.toThrow(/bad HTTP target/)
    await expect(sendBurst(target(u, { headers: { 'x-a': 'a\r\nb' } }), 1)).rejects.toThrow(
      /header "x-a"/
    )
    await expect(sendPaced(target(u), 0, 1)).rejects.toThrow(/bad rate/)
    await expect(sendPaced(target(u), 10, 0)).resolves.toEqual([])
  })
})

describe('sendBurst', () => {
  it('issues every request at once: the server holds 20 until all 20 have arrived', async () => {
    const waiting: http.ServerResponse[] = []
    let maxInFlight = 0
    const barrier = await serve((_req, res) => {
      waiting.push(res)
      maxInFlight = Math.max(maxInFlight, waiting.length)
      if (waiting.length === 20) setTimeout(() => waiting.splice(0).forEach(w => w.end('ok')), 50)
    })
    try {
      const records = await sendBurst(target(`${barrier.url}/`, { timeoutMs: 3000 }), 20)
      expect(maxInFlight).toBe(20)
      expect(records.every(r => r.status === 200 && r.scheduled === null)).toBe(true)
      const sent = records.map(r => r.sent)
      expect(Math.max(...sent) - Math.min(...sent)).toBeLessThan(0.05)
      const { metrics, samples } = burstHttpSamples(records, null)
      expect(metrics).toEqual(['roundtrip'])
      samples.roundtrip.forEach(s => expect(s).toBeGreaterThanOrEqual(0.05))
    } finally {
      await barrier.close()
    }
  })
})

describe('hop figures from a real server', () => {
  const timing = 'relay1;dur=2.5, cache;desc="hit, miss; x", relay2;desc=x;dur=3'
  let server: Server
  beforeAll(
    async () =>
      (server = await serve((_req, res) => {
        res.setHeader('Server-Timing', timing)
        res.end(JSON.stringify({ meta: { hops: { relay1: 0.002, relay2: 0.0035 } } }))
      }))
  )
  afterAll(() => server.close())

  it('reads a JSON path from the body', async () => {
    const hops = { json: 'meta.hops' }
    const records = await sendPaced(target(`${server.url}/`, { keep: keepFor(hops) }), 100, 5)
    const m = pacedHttpSamples(records, hops)
    expect(m.metrics).toEqual(['latency', 'latency:sent', 'c:lag', 'hop:relay1', 'hop:relay2'])
    expect(m.samples['hop:relay1']).toEqual([0.002, 0.002, 0.002, 0.002, 0.002])
    expect(m.samples['hop:relay2']).toEqual([0.0035, 0.0035, 0.0035, 0.0035, 0.0035])
    expect(m.hopsMissing).toBe(0)
  })

  it('reads Server-Timing from the headers, skipping entries without a duration', async () => {
    const hops = { header: 'Server-Timing' }
    const records = await sendBurst(target(`${server.url}/`, { keep: keepFor(hops) }), 3)
    const m = burstHttpSamples(records, hops)
    expect(m.metrics).toEqual(['roundtrip', 'hop:relay1', 'hop:relay2'])
    expect(m.samples['hop:relay1']).toEqual([0.0025, 0.0025, 0.0025])
    expect(m.samples['hop:relay2']).toEqual([0.003, 0.003, 0.003])
  })
})

describe('parseServerTiming', () => {
  it('parses names, parameters, quoted strings and milliseconds', () => {
    expect(parseServerTiming('db;dur=53, app;dur=47.25')).toEqual([
      ['db', 53 / 1000],
      ['app', 47.25 / 1000]
    ])
    expect(parseServerTiming('a ; desc="x, \\"y\\"; z" ; dur = 12.5 ,b;dur=.5')).toEqual([
      ['a', 0.0125],
      ['b', 0.0005]
    ])
    // The first dur counts; an entry without one is no hop; names are case-kept.
    expect(parseServerTiming('Edge;dur=1;dur=9, miss, total;DUR=2')).toEqual([
      ['Edge', 0.001],
      ['total', 0.002]
    ])
  })
  it('rejects what does not parse and durations that are no non-negative decimal', () => {
    for (const bad of [
      '',
      'a;dur=abc',
      'a;dur=-1',
      'a;dur=1e3',
      'a;dur="12"x',
      'a;desc="unterminated;dur=1',
      'a;dur=1,,b;dur=2',
      'a b;dur=1',
      ';dur=1'
    ]) {
      expect(parseServerTiming(bad)).toBeNull()
    }
  })
})

describe('HTTP metrics on constructed records', () => {
  // Epoch seconds in a double resolve about 0.2 µs: intervals compare to 6 places.
  const T0 = 1_700_000_000
  const rec = (over: Partial<RequestRecord>): RequestRecord => ({
    scheduled: T0,
    sent: T0,
    done: T0 + 0.01,
    status: 200,
    error: null,
    ...over
  })

  it('computes paced and burst metrics from their definitions', () => {
    const records = [
      rec({ scheduled: T0, sent: T0 + 0.001, done: T0 + 0.011 }),
      rec({ scheduled: T0 + 0.1, sent: T0 + 0.4, done: T0 + 0.42 }),
      rec({ scheduled: T0 + 0.2, sent: T0 + 0.2, done: T0 + 0.3, status: 500, error: 'x' }),
      rec({ scheduled: T0 + 0.3, sent: T0 + 0.3, done: T0 + 0.31, status: null, error: 'y' })
    ]
    const m = pacedHttpSamples(records, null)
    expect(m.errors).toBe(2)
    const close = (xs: number[], ys: number[]) =>
      xs.forEach((x, i) => expect(x).toBeCloseTo(ys[i], 6))
    close(m.samples.latency, [0.011, 0.32])
    close(m.samples['latency:sent'], [0.01, 0.02])
    close(m.samples['c:lag'], [0.001, 0.3])
    const b = burstHttpSamples(
      records.map(r => ({ ...r, scheduled: null })),
      null
    )
    close(b.samples.roundtrip, [0.01, 0.02])
    expect(() => pacedHttpSamples([rec({ scheduled: null })], null)).toThrow(/without a schedule/)
  })

  it('keeps hostile hop names and values from the samples, counting what it leaves out', () => {
    const hops = { json: 'hops' }
    const body = (o: unknown) => rec({ body: JSON.stringify({ hops: o }) })
    const many = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`h${i}`, 0.001]))
    const m = pacedHttpSamples(
      [
        body({ '<script>alert(1)</script>': 0.5, ['n'.repeat(100)]: 0.25, '💥': 1 }),
        body({ a: '0.1' }), // a string: this answer's hops are missing
        body({ a: { b: 1 } }),
        body([0.1]),
        rec({ body: 'not json' }),
        rec({ body: JSON.stringify({ other: 1 }) }),
        rec({}), // no body kept
        body({ 'a b': -0.5, ab: 0.2, ['__proto__']: 0.125 }),
        body(many)
      ],
      hops
    )
    expect(m.hopsMissing).toBe(6)
    // '💥' cleans to nothing, 'ab' repeats 'a b' in one answer, and 12 of h0…h39 pass MAX_HOPS.
    const named = ['scriptalert1script', 'n'.repeat(40), 'ab', '__proto__'].map(h => `hop:${h}`)
    expect(m.metrics.slice(3, 7)).toEqual(named)
    expect(m.metrics).toHaveLength(3 + MAX_HOPS)
    expect(m.metrics.at(-1)).toBe('hop:h27')
    expect(m.hopsDropped).toBe(1 + 1 + 12)
    expect(m.samples['hop:ab']).toEqual([0]) // negative clamps to zero, as any interval here
    expect(m.samples['hop:scriptalert1script']).toEqual([0.5])
    expect(m.samples['hop:__proto__']).toEqual([0.125])
    expect(m.samples.latency).toHaveLength(9)
  })

  it('counts a missing or malformed Server-Timing header as missing hops', () => {
    const hops = { header: 'server-timing' }
    const m = burstHttpSamples(
      [
        rec({ headers: { 'server-timing': 'x;dur=1' } }),
        rec({ headers: { 'server-timing': 'x;dur=oops' } }),
        rec({ headers: {} })
      ],
      hops
    )
    expect(m.samples['hop:x']).toEqual([0.001])
    expect(m.hopsMissing).toBe(2)
  })

  it('turns a run into summarizeRun input: a paced block by its schedule, a burst by its span', () => {
    const paced = Array.from({ length: 10 }, (_, i) =>
      rec({ scheduled: T0 + i / 5, sent: T0 + i / 5, done: T0 + i / 5 + 0.01 })
    )
    const input = httpRunInput(
      { index: 1, warmup: false, rate: 5, records: paced, bodyBytes: 17 },
      null
    )
    const run = RunResultSchema.parse(summarizeRun(input))
    expect(run).toMatchObject({
      index: 1,
      rate: 5,
      startedAt: new Date(T0 * 1000).toISOString(),
      clientSeconds: 2,
      requests: 10,
      payloadBytes: 170,
      dataRateMBps: null
    })
    expect(Object.keys(run.summaries)).toEqual(['latency', 'latency:sent', 'c:lag'])
    expect(run.summaries.latency.median).toBeCloseTo(0.01, 6)

    const burst = paced.map((r, i) => ({ ...r, scheduled: null, sent: T0 + i * 0.001 }))
    const b = httpRunInput(
      { index: 0, warmup: true, rate: null, records: burst, bodyBytes: 1 },
      null
    )
    expect(b.clientSeconds).toBeCloseTo(1.8 + 0.01, 6)
    expect(b.metrics).toEqual(['roundtrip'])
  })
})
