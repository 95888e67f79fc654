/**
 * The HTTP load driver: an open-loop generator on node:http. A well-kept generator would be
 * preferred, but none fits the runner: vegeta's module is refused by the Go module proxy here (403
 * for github.com/tsenart/vegeta/v12), wrk2 is not packaged in Debian, Debian's wrk is closed loop
 * (a slow answer delays the requests behind it: coordinated omission), and k6 would be a Go build
 * on every runner, does not correct each request to its scheduled time, and its per-request output
 * lacks the response bodies the per-hop figures come from. So this driver keeps each request's due
 * time, actual send and completion, and the response part the hop figures need.
 */
import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import * as http from 'node:http'
import { Worker } from 'node:worker_threads'
import { z } from 'zod'

/** Which part of a response the caller keeps for hop figures. */
export type Keep = 'none' | 'body' | 'headers'

export const HttpTargetSchema = z
  .object({
    url: z
      .string()
      .url()
      .refine(u => new URL(u).protocol === 'http:', 'must be an http:// URL'),
    method: z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'must be an HTTP method token'),
    headers: z.record(z.string()),
    body: z.string().nullable(),
    /** Accepted response statuses; any other is recorded as an error. */
    status: z.array(z.number().int().min(100).max(599)).min(1),
    /** At most what a Node timer holds (about 24.8 days). */
    timeoutMs: z
      .number()
      .positive()
      .max(2 ** 31 - 1),
    keep: z.enum(['none', 'body', 'headers'])
  })
  .strict()
export type HttpTarget = z.infer<typeof HttpTargetSchema>

/** One request's fate. Instants are epoch seconds; `scheduled` is null in a burst. */
export interface RequestRecord {
  scheduled: number | null
  sent: number
  done: number
  status: number | null
  /** Set for a failed request or an unexpected status. */
  error: string | null
  /** The body (keep 'body') or headers (keep 'headers') of an accepted answer. */
  body?: string
  headers?: Record<string, string>
  /** The W3C trace id sent in `traceparent`, when this request was traced. */
  traceId?: string
  /** Per-hop figures joined from its trace, [name, seconds] (metrics/trace-hops.ts). */
  hops?: [string, number][]
}

/**
 * Tracing: a `sample` share of requests carries a W3C `traceparent` of a fresh trace id and parent
 * span id (sampled flag set), each handed to `started` before the request leaves, so the services'
 * spans can be joined to the request that caused them.
 */
export interface TraceStart {
  sample: number
  started(traceId: string, parentSpanId: string): void
}

export interface SendOptions {
  /** Reuses connections across calls (e.g. runs of one profile); by default each call has its own. */
  agent?: http.Agent
  /**
   * Epoch milliseconds at which a paced schedule starts (request i due at it + i/rate), so two
   * drivers can share one clock; by default once the ticker runs.
   */
  startAtMs?: number
  trace?: TraceStart
}

/** A kept body is for hop figures only: a larger one is cut, and its hops then fail to parse. */
export const KEPT_BODY_LIMIT = 1 << 20

/** Epoch milliseconds from the monotonic clock: sub-millisecond, never steps back. */
const nowMs = (): number => performance.timeOrigin + performance.now()

/** Keep-alive with no cap on sockets: an open loop must never queue a request behind another. */
export const keepAliveAgent = (): http.Agent =>
  new http.Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: Infinity })

interface Prepared {
  options: http.RequestOptions
  body: Buffer | null
  accepted: Set<number>
  timeoutMs: number
  keep: Keep
  trace: TraceStart | null
}

/** Validates the target once, so a bad one throws here and never per request. */
function prepare(target: HttpTarget, agent: http.Agent, trace?: TraceStart): Prepared {
  const parsed = HttpTargetSchema.safeParse(target)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new Error(`bad HTTP target: ${issue.path.join('.') || 'target'} ${issue.message}`)
  }
  const t = parsed.data
  for (const [name, value] of Object.entries(t.headers)) {
    try {
      http.validateHeaderName(name)
      http.validateHeaderValue(name, value)
    } catch (e) {
      throw new Error(`bad HTTP target: header ${JSON.stringify(name)}: ${(e as Error).message}`)
    }
  }
  const url = new URL(t.url)
  const body = t.body === null ? null : Buffer.from(t.body)
  return {
    options: {
      host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: url.port || 80,
      path: url.pathname + url.search,
      method: t.method,
      headers: body ? { ...t.headers, 'content-length': String(body.length) } : t.headers,
      agent
    },
    body,
    accepted: new Set(t.status),
    timeoutMs: t.timeoutMs,
    keep: t.keep,
    trace: trace ?? null
  }
}

/** The request's options, with a `traceparent` when it is one of the sampled share. */
function traced(p: Prepared): { options: http.RequestOptions; traceId?: string } {
  if (!p.trace || !(Math.random() < p.trace.sample)) return { options: p.options }
  const traceId = randomBytes(16).toString('hex')
  const parent = randomBytes(8).toString('hex')
  p.trace.started(traceId, parent)
  const traceparent = `00-${traceId}-${parent}-01`
  return { options: { ...p.options, headers: { ...p.options.headers, traceparent } }, traceId }
}

const flatHeaders = (h: http.IncomingHttpHeaders): Record<string, string> =>
  Object.fromEntries(
    Object.entries(h).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')])
  )

/** Sends one request; always resolves, a failure becomes the record's error. */
function send(p: Prepared, scheduled: number | null): Promise<RequestRecord> {
  return new Promise(resolve => {
    const { options, traceId } = traced(p)
    const sent = nowMs()
    let settled = false
    const finish = (done: number, rest: Omit<RequestRecord, 'scheduled' | 'sent' | 'done'>) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resolve({
        scheduled: scheduled === null ? null : scheduled / 1000,
        sent: sent / 1000,
        done: done / 1000,
        ...rest,
        ...(traceId && { traceId })
      })
    }
    const fail = (error: string, status: number | null = null) => finish(nowMs(), { status, error })
    const req = http.request(options, res => {
      const status = res.statusCode ?? null
      const ok = status !== null && p.accepted.has(status)
      const chunks: Buffer[] = []
      let size = 0
      if (ok && p.keep === 'body') {
        res.on('data', (c: Buffer) => {
          if (size < KEPT_BODY_LIMIT) chunks.push(c)
          size += c.length
        })
      } else {
        res.resume()
      }
      res.on('end', () => {
        const done = nowMs()
        if (!ok) return finish(done, { status, error: `unexpected status ${status}` })
        finish(done, {
          status,
          error: null,
          ...(p.keep === 'body' && {
            body: Buffer.concat(chunks).subarray(0, KEPT_BODY_LIMIT).toString()
          }),
          ...(p.keep === 'headers' && { headers: flatHeaders(res.headers) })
        })
      })
      res.on('error', e => fail(e.message, status))
      res.on('close', () => {
        if (!res.complete) fail('connection closed before the response ended', status)
      })
    })
    // Also for an answer whose body is still coming: a request is done when its body is.
    const timer = setTimeout(() => {
      fail(`no answer within ${p.timeoutMs} ms`)
      req.destroy()
    }, p.timeoutMs)
    req.on('error', e => fail(e.message))
    req.end(p.body ?? undefined)
  })
}

/**
 * Ticks the schedule from a worker thread. Node's timers resolve whole milliseconds and fire up to
 * one late; a worker sleeping in Atomics.wait wakes within some 0.1 ms and costs no CPU while it
 * waits, unlike spinning on the event loop. Measured with bench/http-driver.ts at 100–1000 req/s:
 * c:lag p50 0.2–0.5 ms against 0.5–0.8 ms with setTimeout, for about 0.1 ms more CPU per request
 * (one more thread wake-up, which costs that much on the project's 2-core VM).
 * It only wakes the main thread, which sends whatever is due when it runs: a stalled event loop
 * catches up at once, and `sent` shows it.
 */
const TICKER = `
const { parentPort } = require('node:worker_threads')
const cell = new Int32Array(new SharedArrayBuffer(4))
const now = () => { const [s, ns] = process.hrtime(); return s * 1e3 + ns / 1e6 }
parentPort.once('message', ({ start, rate, count }) => {
  for (let i = 0; i < count; i++) {
    const wait = start + (i * 1000) / rate - now()
    if (wait > 0) Atomics.wait(cell, 0, 0, wait)
    parentPort.postMessage(i)
  }
})
`

/** The monotonic clock the ticker reads (process.hrtime), in milliseconds. */
const hrMs = (): number => {
  const [s, ns] = process.hrtime()
  return s * 1e3 + ns / 1e6
}

async function withAgent<T>(opts: SendOptions, work: (a: http.Agent) => Promise<T>): Promise<T> {
  const agent = opts.agent ?? keepAliveAgent()
  try {
    return await work(agent)
  } finally {
    if (!opts.agent) agent.destroy()
  }
}

/**
 * Open loop: request i is due at t0 + i/rate and is sent then, however many earlier requests are
 * still in flight. Records come back in request order.
 */
export async function sendPaced(
  target: HttpTarget,
  rate: number,
  count: number,
  opts: SendOptions = {}
): Promise<RequestRecord[]> {
  if (!(rate > 0 && Number.isFinite(rate))) throw new Error(`bad rate ${rate}: must be > 0`)
  if (!Number.isInteger(count) || count < 0) throw new Error(`bad request count ${count}`)
  return withAgent(opts, async agent => {
    const p = prepare(target, agent, opts.trace)
    if (count === 0) return []
    const pending: Promise<RequestRecord>[] = []
    const worker = new Worker(TICKER, { eval: true })
    try {
      // The schedule starts once the ticker runs, or its start-up (tens of ms) would be lag.
      await once(worker, 'online')
      const now = nowMs()
      const t0 = opts.startAtMs ?? now
      worker.postMessage({ start: hrMs() + (t0 - now), rate, count })
      await new Promise<void>((resolve, reject) => {
        worker.on('error', reject)
        // Tick i says request i is due; any later one already due goes too (a stall's backlog).
        worker.on('message', (tick: number) => {
          const now = nowMs()
          while (pending.length < count) {
            const due = t0 + (pending.length * 1000) / rate
            if (pending.length > tick && due > now) break
            pending.push(send(p, due))
          }
          if (pending.length === count) resolve()
        })
      })
    } finally {
      await worker.terminate()
    }
    return Promise.all(pending)
  })
}

/** Every request issued at once, each on its own connection unless one is free. */
export async function sendBurst(
  target: HttpTarget,
  count: number,
  opts: SendOptions = {}
): Promise<RequestRecord[]> {
  if (!Number.isInteger(count) || count < 0) throw new Error(`bad request count ${count}`)
  return withAgent(opts, agent => {
    const p = prepare(target, agent, opts.trace)
    return Promise.all(Array.from({ length: count }, () => send(p, null)))
  })
}
